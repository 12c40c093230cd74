// The fat-tree families (fat_tree.hpp): FT2, FT3, MRFT and MPFT. Their descriptors, their shared
// checks (radix, oversubscription) and their closed forms.
#include <algorithm>
#include <array>
#include <string>

#include "sim/core/arithmetic.hpp"
#include "topologies/family.hpp"
#include "topologies/fat_tree.hpp"

namespace codesim::topologies {
namespace {

constexpr std::array<std::string_view, 2> kTreeReads = {"switch_radix", "oversubscription"};
constexpr std::array<std::string_view, 3> kPlaneReads = {"switch_radix", "oversubscription",
                                                         "planes"};

// --- checks

void tree_problems(const NetworkSpec& s, int, int, std::vector<SpecProblem>& p) {
  if (s.radix < 4 || s.radix % 2 != 0) {
    p.push_back(
        {"switch_radix", "must be even and at least 4 (half the ports down, half up), got " +
                             std::to_string(s.radix)});
    return;
  }
  if (s.oversubscription < 1 || s.oversubscription > s.radix / 2) {
    p.push_back({"oversubscription",
                 "must be from 1 (full bisection) to radix / 2 = " + std::to_string(s.radix / 2) +
                     ", got " + std::to_string(s.oversubscription)});
  }
}

void mpft_problems(const NetworkSpec& s, int nodes, int gpus_per_node,
                   std::vector<SpecProblem>& p) {
  tree_problems(s, nodes, gpus_per_node, p);
  if (p.empty() && s.planes != gpus_per_node) {
    p.push_back({"planes", "mpft puts GPU i's NIC in plane i: planes must equal gpus_per_node (" +
                               std::to_string(gpus_per_node) + "), got " +
                               std::to_string(s.planes)});
  }
}

void mrft_fit_problems(const NetworkSpec& s, int nodes, int gpus_per_node,
                       std::vector<SpecProblem>& p) {
  if (mrft_three_tier(s, gpus_per_node, nodes) && (s.radix / 2) % gpus_per_node != 0) {
    p.push_back({"nodes", "mrft beyond one two-layer tree splits each pod's " +
                              std::to_string(s.radix / 2) + " leaves among the " +
                              std::to_string(gpus_per_node) +
                              " rails: radix / 2 must be a multiple of gpus_per_node"});
  }
}

// --- capacities

long long ft2_capacity(const NetworkSpec& s) {
  return static_cast<long long>(s.radix) * leaf_ports(s.radix, s.oversubscription).down;
}
long long three_tier_capacity(const NetworkSpec& s) {  // FT3, and MRFT's three tiers
  const long long k = s.radix;
  return k * k * k / 4;
}
long long mpft_capacity(const NetworkSpec& s) {
  return s.planes * ft2_capacity(s);
}

// --- closed forms

// Two-layer tree sized for its leaves (fat_tree.hpp): every leaf's uplinks, when it has spines
// to reach. Returns the uplinks, 0 without spines.
long long add_two_layer(FamilyForm& f, long long leaves, long long radix, long long up) {
  const long long spines = two_layer_spines(leaves, radix, up);
  f.switches += leaves + spines;
  const long long uplinks = spines > 0 ? leaves * up : 0;
  f.switch_links += uplinks;
  return uplinks;
}

// At 1:R the top tier's uplinks bound the cut: half of them cross a balanced cut (at 1:1 every
// build keeps full bisection, a partial pod's uplinks matching its endpoints).
double top_tier_cut(const NetworkSpec& s, long long gpus, long long uplinks) {
  const auto half = static_cast<double>(gpus / 2);
  return s.oversubscription > 1 && uplinks > 0 ? std::min(half, static_cast<double>(uplinks) / 2)
                                               : half;
}

// A three-tier build's switches, links and diameter (fat_tree.hpp).
FamilyForm three_tier_form(const ThreeTierShape& shape, const NetworkSpec& s, long long gpus) {
  FamilyForm f;
  const long long half = s.radix / 2;
  if (shape.single_switch()) {
    f.switches = 1;
    f.cut_links = static_cast<double>(gpus / 2);
    return f;
  }
  for (const int edges : shape.edges) {
    f.switches += 2LL * edges;       // edge and aggregation switches
    f.switch_links += edges * half;  // each edge switch's uplinks
  }
  for (const int group : shape.cores) {
    f.switches += group;
  }
  const long long uplinks = shape.core_links();
  f.switch_links += uplinks;
  const std::size_t pods = shape.edges.size();
  f.diameter = pods > 1 ? 4 : (pods == 1 && shape.edges.front() > 1 ? 2 : 0);
  // The bisection is an estimate at 1:R with a partial last pod, whose uplinks the cut may not
  // need.
  f.bisection_exact = s.oversubscription == 1 || shape.edges.back() == half;
  f.cut_links = top_tier_cut(s, gpus, uplinks);
  return f;
}

// Two-layer trees of `leaves` leaves each, `trees` of them.
FamilyForm two_layer_form(const NetworkSpec& s, long long gpus, long long leaves, int trees) {
  FamilyForm f;
  const long long up = leaf_ports(s.radix, s.oversubscription).up;
  long long uplinks = 0;
  for (int tree = 0; tree < trees; ++tree) {
    uplinks += add_two_layer(f, leaves, s.radix, up);
  }
  f.diameter = leaves > 1 ? 2 : 0;
  f.cut_links = top_tier_cut(s, gpus, uplinks);
  return f;
}

FamilyForm ft2_form(const NetworkSpec& s, const NodeSpec& node, long long nodes) {
  const long long gpus = nodes * node.gpus_per_node;
  const long long down = leaf_ports(s.radix, s.oversubscription).down;
  return two_layer_form(s, gpus, core::ceil_div(gpus, down), 1);
}

FamilyForm ft3_form(const NetworkSpec& s, const NodeSpec& node, long long nodes) {
  const long long gpus = nodes * node.gpus_per_node;
  return three_tier_form(ft3_shape(s, gpus), s, gpus);
}

FamilyForm mrft_form(const NetworkSpec& s, const NodeSpec& node, long long nodes) {
  const long long gpus = nodes * node.gpus_per_node;
  if (mrft_three_tier(s, node.gpus_per_node, static_cast<int>(nodes))) {
    return three_tier_form(mrft_shape(s, node.gpus_per_node, nodes), s, gpus);
  }
  // One two-layer tree whose leaves each serve one rail.
  const long long down = leaf_ports(s.radix, s.oversubscription).down;
  return two_layer_form(s, gpus, node.gpus_per_node * core::ceil_div(nodes, down), 1);
}

FamilyForm mpft_form(const NetworkSpec& s, const NodeSpec& node, long long nodes) {
  const long long down = leaf_ports(s.radix, s.oversubscription).down;
  return two_layer_form(s, nodes * node.gpus_per_node, core::ceil_div(nodes, down), s.planes);
}

}  // namespace

extern const FamilyDescriptor kFt2Family = {
    .family = Family::ft2,
    .name = "ft2",
    .summary = "two-layer fat tree: k leaves under k/2 spines, k^2/2 endpoints",
    .reads = kTreeReads,
    .capacity = ft2_capacity,
    .problems = tree_problems,
    .build = build_fat_tree_2,
    .closed_form = ft2_form,
};

extern const FamilyDescriptor kFt3Family = {
    .family = Family::ft3,
    .name = "ft3",
    .summary = "three-layer fat tree: k pods under (k/2)^2 cores, k^3/4 endpoints",
    .reads = kTreeReads,
    .capacity = three_tier_capacity,
    .problems = tree_problems,
    .build = build_fat_tree_3,
    .closed_form = ft3_form,
};

extern const FamilyDescriptor kMrftFamily = {
    .family = Family::mrft,
    .name = "mrft",
    .summary =
        "multi-rail fat tree: each leaf serves one GPU index (rail); three tiers beyond one "
        "two-layer tree",
    .reads = kTreeReads,
    .capacity = three_tier_capacity,
    .problems = tree_problems,
    .fit_problems = mrft_fit_problems,
    .build = build_multi_rail_fat_tree,
    .closed_form = mrft_form,
};

extern const FamilyDescriptor kMpftFamily = {
    .family = Family::mpft,
    .name = "mpft",
    .summary = "multi-plane fat tree: one two-layer tree per GPU index of a node",
    .reads = kPlaneReads,
    .capacity = mpft_capacity,
    .problems = mpft_problems,
    .build = build_multi_plane_fat_tree,
    .closed_form = mpft_form,
};

}  // namespace codesim::topologies
