// Dragonfly generator.
#include "topologies/dragonfly.hpp"

#include <algorithm>
#include <set>

#include "sim/core/arithmetic.hpp"

namespace codesim::topologies {

std::vector<std::pair<int, int>> dragonfly_global_pairs(int groups, int ports_per_group) {
  std::vector<std::pair<int, int>> pairs;
  if (groups < 2) {
    return pairs;
  }
  std::vector<int> used(groups, 0);
  const long long total = static_cast<long long>(groups) * ports_per_group / 2;
  pairs.reserve(static_cast<std::size_t>(total));
  std::size_t at_cycle_start = 0;
  for (int d = 1; static_cast<long long>(pairs.size()) < total; d = d % (groups / 2) + 1) {
    if (d == 1) {
      if (at_cycle_start == pairs.size() && !pairs.empty()) {
        break;  // a whole cycle of offsets added nothing: the leftover ports cannot pair up
      }
      at_cycle_start = pairs.size();
    }
    const int count = (groups % 2 == 0 && d == groups / 2) ? groups / 2 : groups;
    for (int i = 0; i < count && static_cast<long long>(pairs.size()) < total; ++i) {
      const int j = (i + d) % groups;
      if (used[i] < ports_per_group && used[j] < ports_per_group) {
        ++used[i];
        ++used[j];
        pairs.emplace_back(i, j);
      }
    }
  }
  return pairs;
}

std::vector<std::pair<int, int>> dragonfly_global_links(int groups, int a, int h) {
  std::vector<std::pair<int, int>> links;
  std::vector<int> next_port(static_cast<std::size_t>(std::max(groups, 0)), 0);
  for (const auto& [g1, g2] : dragonfly_global_pairs(groups, a * h)) {
    const int r1 = next_port[static_cast<std::size_t>(g1)]++ / h;
    const int r2 = next_port[static_cast<std::size_t>(g2)]++ / h;
    links.emplace_back(g1 * a + r1, g2 * a + r2);
  }
  return links;
}

long long dragonfly_groups_needed(const NetworkSpec& s, long long endpoints) {
  const long long per_group = static_cast<long long>(s.dragonfly_a) * s.endpoints_per_router;
  return std::min<long long>(s.dragonfly_groups, core::ceil_div(endpoints, per_group));
}

int dragonfly_diameter(const NetworkSpec& s, long long groups) {
  const int a = s.dragonfly_a;
  const int h = s.dragonfly_h;
  if (groups < 2) {
    return 1;
  }
  if (h < groups - 1) {
    return 3;
  }
  const int g = static_cast<int>(groups);
  std::vector<std::set<int>> reached(static_cast<std::size_t>(g * a));
  for (const auto& [r1, r2] : dragonfly_global_links(g, a, h)) {
    reached[static_cast<std::size_t>(r1)].insert(r2 / a);
    reached[static_cast<std::size_t>(r2)].insert(r1 / a);
  }
  const bool all = std::all_of(reached.begin(), reached.end(), [&](const std::set<int>& r) {
    return static_cast<long long>(r.size()) == groups - 1;
  });
  return all ? 2 : 3;
}

Topology build_dragonfly(const NetworkSpec& s, const NodeSpec& node, int nodes) {
  Topology t(Family::dragonfly, node);
  t.add_nodes(nodes, true);
  const int a = s.dragonfly_a;
  const int h = s.dragonfly_h;
  const int groups = static_cast<int>(dragonfly_groups_needed(s, t.gpus()));
  std::vector<VertexId> routers;
  routers.reserve(static_cast<std::size_t>(a) * groups);
  for (int g = 0; g < groups; ++g) {
    for (int r = 0; r < a; ++r) {
      routers.push_back(t.add_vertex(Vertex{.kind = VertexKind::router, .group = g}));
      for (int other = 0; other < r; ++other) {
        t.add_switch_link(routers[g * a + other], routers.back());
      }
    }
  }
  for (const auto& [r1, r2] : dragonfly_global_links(groups, a, h)) {
    t.add_switch_link(routers[static_cast<std::size_t>(r1)], routers[static_cast<std::size_t>(r2)]);
  }
  for (int e = 0; e < t.gpus(); ++e) {
    t.add_endpoint_link(t.nic(e), routers[e / s.endpoints_per_router]);
  }
  return t;
}

}  // namespace codesim::topologies
