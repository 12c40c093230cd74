// Spec validation: radix limits, divisibility, capacity.
#include "topologies/network_spec.hpp"

#include <span>

#include "topologies/fat_tree.hpp"
#include "topologies/slim_fly.hpp"

namespace codesim::topologies {
namespace {

std::string n(long long v) {
  return std::to_string(v);
}

}  // namespace

std::string_view family_name(Family f) {
  for (const auto& [family, name] : kFamilyNames) {
    if (family == f) {
      return name;
    }
  }
  return "";
}

std::optional<Family> family_from_name(std::string_view name) {
  for (const auto& table : {std::span<const std::pair<Family, std::string_view>>(kFamilyNames),
                            std::span<const std::pair<Family, std::string_view>>(kFamilyAliases)}) {
    for (const auto& [family, spelled] : table) {
      if (spelled == name) {
        return family;
      }
    }
  }
  return std::nullopt;
}

std::string family_choices() {
  std::string out;
  for (const auto& [family, name] : kFamilyNames) {
    out += (out.empty() ? "" : ", ") + std::string(name);
    for (const auto& [aliased, alias] : kFamilyAliases) {
      if (aliased == family) {
        out += " (" + std::string(alias) + ")";
      }
    }
  }
  return out;
}

long long endpoint_capacity(const NetworkSpec& s) {
  const long long k = s.radix;
  switch (s.family) {
    case Family::node:
      return 0;
    case Family::ft2:
      return k * leaf_ports(s.radix, s.oversubscription).down;
    case Family::mrft:  // three tiers beyond one two-layer tree (fat_tree.hpp)
      return k * k * k / 4;
    case Family::ft3:
      return k * k * k / 4;
    case Family::mpft:
      return s.planes * k * leaf_ports(s.radix, s.oversubscription).down;
    case Family::slimfly:
      return 2LL * s.slimfly_q * s.slimfly_q * s.endpoints_per_router;
    case Family::dragonfly:
      return static_cast<long long>(s.dragonfly_a) * s.endpoints_per_router * s.dragonfly_groups;
  }
  return 0;
}

namespace {

// A fat tree's switch radix and oversubscription.
void fat_tree_problems(const NetworkSpec& s, std::vector<SpecProblem>& p) {
  if (s.radix < 4 || s.radix % 2 != 0) {
    p.push_back({"switch_radix",
                 "must be even and at least 4 (half the ports down, half up), got " + n(s.radix)});
    return;
  }
  if (s.oversubscription < 1 || s.oversubscription > s.radix / 2) {
    p.push_back({"oversubscription", "must be from 1 (full bisection) to radix / 2 = " +
                                         n(s.radix / 2) + ", got " + n(s.oversubscription)});
  }
}

void slim_fly_problems(const NetworkSpec& s, std::vector<SpecProblem>& p) {
  if (!is_prime(s.slimfly_q) || s.slimfly_q < 5) {
    p.push_back(
        {"slimfly_q",
         "must be a prime of at least 5 (codesim builds MMS graphs over prime fields), got " +
             n(s.slimfly_q)});
  }
  if (s.endpoints_per_router < 1) {
    p.push_back({"endpoints_per_router", "must be at least 1, got " + n(s.endpoints_per_router)});
  }
}

void dragonfly_problems(const NetworkSpec& s, std::vector<SpecProblem>& p) {
  if (s.dragonfly_a < 2) {
    p.push_back({"dragonfly_a", "a group needs at least 2 routers, got " + n(s.dragonfly_a)});
  }
  if (s.dragonfly_h < 1) {
    p.push_back(
        {"dragonfly_h", "each router needs at least 1 global link, got " + n(s.dragonfly_h)});
  }
  if (s.endpoints_per_router < 1) {
    p.push_back({"endpoints_per_router", "must be at least 1, got " + n(s.endpoints_per_router)});
  }
  if (s.dragonfly_groups < 2) {
    p.push_back({"dragonfly_groups", "must be at least 2, got " + n(s.dragonfly_groups)});
    return;
  }
  if (s.dragonfly_a < 2 || s.dragonfly_h < 1) {
    return;
  }
  const long long max_groups = static_cast<long long>(s.dragonfly_a) * s.dragonfly_h + 1;
  if (s.dragonfly_groups > max_groups) {
    p.push_back({"dragonfly_groups", "at most a x h + 1 = " + n(max_groups) +
                                         " groups can all be joined directly, got " +
                                         n(s.dragonfly_groups)});
  }
  const long long ends = static_cast<long long>(s.dragonfly_groups) * s.dragonfly_a * s.dragonfly_h;
  if (ends % 2 != 0) {
    p.push_back({"dragonfly_groups",
                 "groups x a x h must be even (each global link has two ends), got " + n(ends)});
  }
}

// Problems of the spec alone, before its size is checked against the nodes.
void shape_problems(const NetworkSpec& s, int nodes, std::vector<SpecProblem>& p) {
  switch (s.family) {
    case Family::node:
      if (nodes != 1) {
        p.push_back({"family", "a single node has no network; " + n(nodes) +
                                   " nodes need one (ft2, mpft, ...)"});
      }
      break;
    case Family::ft2:
    case Family::ft3:
    case Family::mrft:
    case Family::mpft:
      fat_tree_problems(s, p);
      break;
    case Family::slimfly:
      slim_fly_problems(s, p);
      break;
    case Family::dragonfly:
      dragonfly_problems(s, p);
      break;
  }
}

}  // namespace

std::vector<SpecProblem> validate(const NetworkSpec& s, int nodes, int gpus_per_node) {
  std::vector<SpecProblem> p;
  const long long endpoints = static_cast<long long>(nodes) * gpus_per_node;
  const bool fat_tree = s.family == Family::ft2 || s.family == Family::ft3 ||
                        s.family == Family::mrft || s.family == Family::mpft;
  if (!fat_tree && s.oversubscription != 1) {
    p.push_back({"oversubscription",
                 "only fat trees (ft2, ft3, mrft, mpft) have a tier to "
                 "oversubscribe; " +
                     std::string(family_name(s.family)) + " takes 1, got " +
                     n(s.oversubscription)});
  }
  shape_problems(s, nodes, p);
  if (!p.empty() || s.family == Family::node) {
    return p;
  }
  if (s.family == Family::mpft && s.planes != gpus_per_node) {
    p.push_back({"planes", "mpft puts GPU i's NIC in plane i: planes must equal gpus_per_node (" +
                               n(gpus_per_node) + "), got " + n(s.planes)});
    return p;
  }
  const long long capacity = endpoint_capacity(s);
  if (endpoints > capacity) {
    p.push_back({"nodes", n(nodes) + " nodes x " + n(gpus_per_node) + " GPUs = " + n(endpoints) +
                              " endpoints exceed the " + std::string(family_name(s.family)) +
                              "'s " + n(capacity)});
  }
  if (s.family == Family::mrft && endpoints <= capacity &&
      mrft_three_tier(s, gpus_per_node, nodes) && (s.radix / 2) % gpus_per_node != 0) {
    p.push_back({"nodes", "mrft beyond one two-layer tree splits each pod's " + n(s.radix / 2) +
                              " leaves among the " + n(gpus_per_node) +
                              " rails: radix / 2 must be a multiple of gpus_per_node"});
  }
  return p;
}

}  // namespace codesim::topologies
