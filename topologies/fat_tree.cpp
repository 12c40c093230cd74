// Fat-tree generators.
#include "topologies/fat_tree.hpp"

#include <algorithm>

#include "sim/core/arithmetic.hpp"

namespace codesim::topologies {
namespace {

// Leaves and spines of one two-layer tree, built for its leaves: each leaf has `up` uplinks
// (half its radix, for full bisection) spread as evenly as they go over the spines, parallel links
// where a leaf has more uplinks than there are spines; as few spines as carry every uplink
// (leaves x up over the radix, more if a spine's ports would not take each leaf's share). One
// leaf needs none. With radix / 2 leaves or more, radix / 2 spines and one link per pair: the
// full-size tree.
struct TwoLayer {
  std::vector<VertexId> leaves;
  std::vector<VertexId> spines;
};

TwoLayer add_two_layer(Topology& t, int leaves, int radix, int up, int plane,
                       int leaves_per_group) {
  const int spines = static_cast<int>(two_layer_spines(leaves, radix, up));
  TwoLayer tree;
  for (int s = 0; s < spines; ++s) {
    tree.spines.push_back(t.add_vertex(Vertex{.kind = VertexKind::spine, .plane = plane}));
  }
  for (int l = 0; l < leaves; ++l) {
    const VertexId leaf = t.add_vertex(
        Vertex{.kind = VertexKind::leaf, .plane = plane, .group = l / leaves_per_group});
    tree.leaves.push_back(leaf);
    for (int s = 0; s < spines; ++s) {
      const int links = up / spines + (s < up % spines ? 1 : 0);
      for (int k = 0; k < links; ++k) {
        t.add_switch_link(leaf, tree.spines[static_cast<std::size_t>(s)], plane);
      }
    }
  }
  return tree;
}

}  // namespace

LeafPorts leaf_ports(int radix, int oversubscription) {
  LeafPorts p;
  for (int down = radix - 1; down >= 1; --down) {
    const int up = core::ceil_div(down, oversubscription);
    if (down + up <= radix) {
      return {down, up};
    }
  }
  return p;
}

int aggregation_uplinks(int radix, int oversubscription) {
  return core::ceil_div(radix / 2, oversubscription);
}

long long two_layer_spines(long long leaves, long long radix, long long up) {
  if (leaves <= 1) {
    return 0;
  }
  long long spines = std::min(up, core::ceil_div(leaves * up, radix));
  while (spines < up && leaves * core::ceil_div(up, spines) > radix) {
    ++spines;
  }
  return spines;
}

Topology build_single_node(const NodeSpec& node) {
  Topology t("node", node);
  t.add_nodes(1, false);
  return t;
}

Topology build_fat_tree_2(const NetworkSpec& s, const NodeSpec& node, int nodes) {
  Topology t("ft2", node);
  t.add_nodes(nodes, true);
  const auto [down, up] = leaf_ports(s.radix, s.oversubscription);
  const int leaves = core::ceil_div(t.gpus(), down);
  const TwoLayer tree = add_two_layer(t, leaves, s.radix, up, -1, leaves);
  for (int e = 0; e < t.gpus(); ++e) {
    t.add_endpoint_link(t.nic(e), tree.leaves[e / down]);
  }
  return t;
}

Topology build_multi_rail_fat_tree(const NetworkSpec& s, const NodeSpec& node, int nodes) {
  Topology t("mrft", node);
  t.add_nodes(nodes, true);
  const auto [down, up] = leaf_ports(s.radix, s.oversubscription);
  const int rails = node.gpus_per_node;
  const int leaves_per_rail = core::ceil_div(nodes, down);
  const TwoLayer tree =
      add_two_layer(t, rails * leaves_per_rail, s.radix, up, -1, leaves_per_rail);
  for (int n = 0; n < nodes; ++n) {
    for (int rail = 0; rail < rails; ++rail) {
      t.add_endpoint_link(t.nic(n * rails + rail), tree.leaves[rail * leaves_per_rail + n / down]);
    }
  }
  return t;
}

Topology build_multi_plane_fat_tree(const NetworkSpec& s, const NodeSpec& node, int nodes) {
  Topology t("mpft", node);
  t.set_plane_crossing(s.plane_crossing);
  t.add_nodes(nodes, true);
  const auto [down, up] = leaf_ports(s.radix, s.oversubscription);
  const int leaves = core::ceil_div(nodes, down);
  for (int plane = 0; plane < s.planes; ++plane) {
    const TwoLayer tree = add_two_layer(t, leaves, s.radix, up, plane, leaves);
    for (int n = 0; n < nodes; ++n) {
      t.add_endpoint_link(t.nic(n * node.gpus_per_node + plane), tree.leaves[n / down], plane);
    }
  }
  return t;
}

Topology build_fat_tree_3(const NetworkSpec& s, const NodeSpec& node, int nodes) {
  Topology t("ft3", node);
  t.add_nodes(nodes, true);
  const int half = s.radix / 2;
  const int pods = core::ceil_div(t.gpus(), half * half);
  // Core group j (j < k/2) takes the uplinks of aggregation switch j of every pod: a two-layer
  // tree whose leaves are those aggregation switches (k/2 uplinks each, fewer at 1:R) and whose spines are
  // the group's cores, built for the pods there are (k/2 cores per group at full size, none for
  // one pod), parallel links where an aggregation switch has more uplinks than its group has
  // cores.
  const int up = aggregation_uplinks(s.radix, s.oversubscription);
  const int per_group = static_cast<int>(two_layer_spines(pods, s.radix, up));
  std::vector<VertexId> cores;
  for (int c = 0; c < half * per_group; ++c) {
    cores.push_back(t.add_vertex(Vertex{.kind = VertexKind::core}));
  }
  std::vector<VertexId> edges;
  for (int pod = 0; pod < pods; ++pod) {
    std::vector<VertexId> aggregation;
    for (int j = 0; j < half; ++j) {
      const VertexId agg = t.add_vertex(Vertex{.kind = VertexKind::spine, .group = pod});
      aggregation.push_back(agg);
      for (int c = 0; c < per_group; ++c) {
        const int links = up / per_group + (c < up % per_group ? 1 : 0);
        for (int l = 0; l < links; ++l) {
          t.add_switch_link(agg, cores[static_cast<std::size_t>(j * per_group + c)]);
        }
      }
    }
    for (int i = 0; i < half; ++i) {
      const VertexId edge = t.add_vertex(Vertex{.kind = VertexKind::leaf, .group = pod});
      edges.push_back(edge);
      for (VertexId agg : aggregation) {
        t.add_switch_link(edge, agg);
      }
    }
  }
  for (int e = 0; e < t.gpus(); ++e) {
    t.add_endpoint_link(t.nic(e), edges[e / half]);
  }
  return t;
}

}  // namespace codesim::topologies
