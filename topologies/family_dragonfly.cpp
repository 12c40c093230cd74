// Dragonfly (dragonfly.hpp): its descriptor, checks and closed form.
#include <array>
#include <string>

#include "sim/core/arithmetic.hpp"
#include "topologies/dragonfly.hpp"
#include "topologies/family.hpp"

namespace codesim::topologies {
namespace {

constexpr std::array<std::string_view, 4> kDragonflyReads = {
    "dragonfly_a", "dragonfly_h", "dragonfly_groups", "endpoints_per_router"};

long long dragonfly_capacity(const NetworkSpec& s) {
  return static_cast<long long>(s.dragonfly_a) * s.endpoints_per_router * s.dragonfly_groups;
}

void dragonfly_problems(const NetworkSpec& s, int, int, std::vector<SpecProblem>& p) {
  if (s.dragonfly_a < 2) {
    p.push_back(
        {"dragonfly_a", "a group needs at least 2 routers, got " + std::to_string(s.dragonfly_a)});
  }
  if (s.dragonfly_h < 1) {
    p.push_back({"dragonfly_h",
                 "each router needs at least 1 global link, got " + std::to_string(s.dragonfly_h)});
  }
  if (s.endpoints_per_router < 1) {
    p.push_back({"endpoints_per_router",
                 "must be at least 1, got " + std::to_string(s.endpoints_per_router)});
  }
  if (s.dragonfly_groups < 2) {
    p.push_back(
        {"dragonfly_groups", "must be at least 2, got " + std::to_string(s.dragonfly_groups)});
    return;
  }
  if (s.dragonfly_a < 2 || s.dragonfly_h < 1) {
    return;
  }
  const long long max_groups = static_cast<long long>(s.dragonfly_a) * s.dragonfly_h + 1;
  if (s.dragonfly_groups > max_groups) {
    p.push_back({"dragonfly_groups", "at most a x h + 1 = " + std::to_string(max_groups) +
                                         " groups can all be joined directly, got " +
                                         std::to_string(s.dragonfly_groups)});
  }
  const long long ends = static_cast<long long>(s.dragonfly_groups) * s.dragonfly_a * s.dragonfly_h;
  if (ends % 2 != 0) {
    p.push_back(
        {"dragonfly_groups", "groups x a x h must be even (each global link has two ends), got " +
                                 std::to_string(ends)});
  }
}

FamilyForm dragonfly_closed_form(const NetworkSpec& s, const NodeSpec& node, long long nodes) {
  const long long gpus = nodes * node.gpus_per_node;
  const long long a = s.dragonfly_a;
  const long long g = dragonfly_groups_needed(s, gpus);
  // Every group's a h global ports, paired over the groups built (dragonfly.hpp).
  const auto global = static_cast<long long>(
      dragonfly_global_pairs(static_cast<int>(g), static_cast<int>(a * s.dragonfly_h)).size());
  FamilyForm f;
  f.switches = a * g;
  f.switch_links = g * a * (a - 1) / 2 + global;
  f.diameter = core::ceil_div(gpus, static_cast<long long>(s.endpoints_per_router)) > 1
                   ? dragonfly_diameter(s, g)
                   : 0;
  f.bisection_exact = false;
  // Split the groups in halves; global links are spread evenly over group pairs, so the share
  // crossing is (g/2)(g - g/2) / (g(g-1)/2). An estimate: other cuts may be smaller.
  f.cut_links = g > 1 ? static_cast<double>(global) * static_cast<double>((g / 2) * (g - g / 2)) /
                            (static_cast<double>(g) * static_cast<double>(g - 1) / 2.0)
                      : static_cast<double>((a / 2) * (a - a / 2));
  return f;
}

}  // namespace

extern const FamilyDescriptor kDragonflyFamily = {
    .family = Family::dragonfly,
    .name = "dragonfly",
    .alias = "df",
    .summary = "Dragonfly: groups of a all-to-all routers, h global links per router",
    .reads = kDragonflyReads,
    .detour_routing = true,
    .grouped_routers = true,
    .capacity = dragonfly_capacity,
    .problems = dragonfly_problems,
    .build = build_dragonfly,
    .closed_form = dragonfly_closed_form,
};

}  // namespace codesim::topologies
