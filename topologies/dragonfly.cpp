// Dragonfly generator.
#include "topologies/dragonfly.hpp"

namespace codesim::topologies {

std::vector<std::pair<int, int>> dragonfly_global_pairs(int groups, int ports_per_group) {
  std::vector<int> used(groups, 0);
  std::vector<std::pair<int, int>> pairs;
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

Topology build_dragonfly(const NetworkSpec& s, const NodeSpec& node, int nodes) {
  Topology t("dragonfly", node);
  t.add_nodes(nodes, true);
  const int a = s.dragonfly_a;
  const int h = s.dragonfly_h;
  std::vector<VertexId> routers;
  routers.reserve(static_cast<std::size_t>(a) * s.dragonfly_groups);
  for (int g = 0; g < s.dragonfly_groups; ++g) {
    for (int r = 0; r < a; ++r) {
      routers.push_back(t.add_vertex(Vertex{.kind = VertexKind::router, .group = g}));
      for (int other = 0; other < r; ++other) {
        t.add_switch_link(routers[g * a + other], routers.back());
      }
    }
  }
  // Global port t of a group sits on router t / h.
  std::vector<int> next_port(s.dragonfly_groups, 0);
  for (const auto& [g1, g2] : dragonfly_global_pairs(s.dragonfly_groups, a * h)) {
    const int r1 = next_port[g1]++ / h;
    const int r2 = next_port[g2]++ / h;
    t.add_switch_link(routers[g1 * a + r1], routers[g2 * a + r2]);
  }
  for (int e = 0; e < t.gpus(); ++e) {
    t.add_endpoint_link(t.nic(e), routers[e / s.endpoints_per_router]);
  }
  return t;
}

}  // namespace codesim::topologies
