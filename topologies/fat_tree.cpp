// Fat-tree generators.
#include "topologies/fat_tree.hpp"

#include <algorithm>
#include <functional>

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
      const int links = two_layer_links(l, s, spines, up);
      for (int k = 0; k < links; ++k) {
        t.add_switch_link(leaf, tree.spines[static_cast<std::size_t>(s)], plane);
      }
    }
  }
  return tree;
}

// The pods and cores of `shape` over the NICs of `t`; NIC e attaches to edge switch edge_of(e),
// numbered pod by pod. A pod of e edge switches has e aggregation switches, each edge's k/2
// uplinks spread over them (edge i's extra links start at aggregation switch i, so each takes
// k/2 down); their uplinks reach the core groups as ThreeTierShape says.
void add_three_tier(Topology& t, const NetworkSpec& s, const ThreeTierShape& shape,
                    const std::function<int(int)>& edge_of) {
  const int half = s.radix / 2;
  std::vector<std::vector<VertexId>> cores(static_cast<std::size_t>(shape.groups()));
  for (int g = 0; g < shape.groups(); ++g) {
    for (int c = 0; c < shape.cores[static_cast<std::size_t>(g)]; ++c) {
      cores[static_cast<std::size_t>(g)].push_back(t.add_vertex(Vertex{.kind = VertexKind::core}));
    }
  }
  std::vector<VertexId> edges;
  if (shape.single_switch()) {
    edges.push_back(t.add_vertex(Vertex{.kind = VertexKind::leaf, .group = 0}));
  }
  for (int pod = 0; pod < static_cast<int>(shape.edges.size()) && !shape.single_switch(); ++pod) {
    const int a = shape.edges[static_cast<std::size_t>(pod)];
    std::vector<VertexId> aggregation;
    for (int j = 0; j < a; ++j) {
      aggregation.push_back(t.add_vertex(Vertex{.kind = VertexKind::spine, .group = pod}));
    }
    for (int g = 0; g < shape.groups(); ++g) {
      const auto& group = cores[static_cast<std::size_t>(g)];
      const long long links = shape.group_links(pod, g);
      long long n = shape.first_in_group(pod, g);
      for (int c = 0; c < static_cast<int>(group.size()); ++c) {
        for (int l = 0; l < two_layer_links(pod, c, static_cast<long long>(group.size()), links);
             ++l, ++n) {
          t.add_switch_link(aggregation[static_cast<std::size_t>(shape.aggregation_of(pod, n))],
                            group[static_cast<std::size_t>(c)]);
        }
      }
    }
    for (int i = 0; i < a; ++i) {
      const VertexId edge = t.add_vertex(Vertex{.kind = VertexKind::leaf, .group = pod});
      edges.push_back(edge);
      for (int j = 0; j < a; ++j) {
        const int links = half / a + ((j - i + a) % a < half % a ? 1 : 0);
        for (int l = 0; l < links; ++l) {
          t.add_switch_link(edge, aggregation[static_cast<std::size_t>(j)]);
        }
      }
    }
  }
  for (int e = 0; e < t.gpus(); ++e) {
    t.add_endpoint_link(t.nic(e), edges[static_cast<std::size_t>(edge_of(e))]);
  }
}

}  // namespace

long long ThreeTierShape::pod_uplinks(int pod) const {
  long long others = 0;
  for (std::size_t q = 0; q < edges.size(); ++q) {
    others += static_cast<int>(q) == pod ? 0 : static_cast<long long>(edges[q]) * uplinks;
  }
  return std::min(static_cast<long long>(edges[static_cast<std::size_t>(pod)]) * uplinks, others);
}

int ThreeTierShape::aggregation_of(int pod, long long n) const {
  return static_cast<int>(n * edges[static_cast<std::size_t>(pod)] / pod_uplinks(pod));
}

long long ThreeTierShape::first_in_group(int pod, int group) const {
  return core::ceil_div(group * pod_uplinks(pod), static_cast<long long>(groups()));
}

long long ThreeTierShape::group_links(int pod, int group) const {
  return first_in_group(pod, group + 1) - first_in_group(pod, group);
}

long long ThreeTierShape::core_links() const {
  long long links = 0;
  for (int g = 0; g < groups(); ++g) {
    for (int pod = 0;
         pod < static_cast<int>(edges.size()) && cores[static_cast<std::size_t>(g)] > 0; ++pod) {
      links += group_links(pod, g);
    }
  }
  return links;
}

ThreeTierShape three_tier_shape(std::vector<int> pod_edges, int radix, int oversubscription) {
  ThreeTierShape shape;
  shape.edges = std::move(pod_edges);
  shape.uplinks = aggregation_uplinks(radix, oversubscription);
  shape.cores.assign(static_cast<std::size_t>(radix / 2), 0);
  const int pods = static_cast<int>(shape.edges.size());
  for (int g = 0; g < shape.groups(); ++g) {
    std::vector<long long> links;
    for (int pod = 0; pod < pods; ++pod) {
      links.push_back(shape.group_links(pod, g));
    }
    shape.cores[static_cast<std::size_t>(g)] = static_cast<int>(group_spines(links, radix));
  }
  return shape;
}

namespace {

// `pods` pods of k/2 edge switches, the last with `last` of them.
std::vector<int> pod_edges(long long pods, long long last, int radix) {
  std::vector<int> edges(static_cast<std::size_t>(pods), radix / 2);
  if (pods > 0) {
    edges.back() = static_cast<int>(last);
  }
  return edges;
}

}  // namespace

ThreeTierShape ft3_shape(const NetworkSpec& s, long long endpoints) {
  const long long half = s.radix / 2;
  const long long pods = core::ceil_div(endpoints, half * half);
  const long long last = core::ceil_div(endpoints - (pods - 1) * half * half, half);
  return three_tier_shape(pod_edges(pods, last, s.radix), s.radix, s.oversubscription);
}

ThreeTierShape mrft_shape(const NetworkSpec& s, int gpus_per_node, long long nodes) {
  const long long half = s.radix / 2;
  const long long pod_nodes = half * half / gpus_per_node;
  const long long pods = core::ceil_div(nodes, pod_nodes);
  const long long last = gpus_per_node * core::ceil_div(nodes - (pods - 1) * pod_nodes, half);
  return three_tier_shape(pod_edges(pods, last, s.radix), s.radix, s.oversubscription);
}

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

int two_layer_links(long long leaf, long long spine, long long spines, long long up) {
  const long long extra = ((spine - leaf) % spines + spines) % spines < up % spines ? 1 : 0;
  return static_cast<int>(up / spines + extra);
}

long long group_spines(const std::vector<long long>& links, long long radix) {
  const auto members = std::count_if(links.begin(), links.end(), [](long long l) { return l > 0; });
  if (members <= 1) {
    return 0;
  }
  long long total = 0;
  long long most = 0;
  for (const long long l : links) {
    total += l;
    most = std::max(most, l);
  }
  for (long long spines = std::min(most, core::ceil_div(total, radix)); spines < most; ++spines) {
    long long busiest = 0;
    for (long long s = 0; s < spines; ++s) {
      long long ports = 0;
      for (std::size_t l = 0; l < links.size(); ++l) {
        ports += two_layer_links(static_cast<long long>(l), s, spines, links[l]);
      }
      busiest = std::max(busiest, ports);
    }
    if (busiest <= radix) {
      return spines;
    }
  }
  return most;
}

long long two_layer_spines(long long leaves, long long radix, long long up) {
  return group_spines(std::vector<long long>(static_cast<std::size_t>(std::max(0LL, leaves)), up),
                      radix);
}

Topology build_single_node(const NodeSpec& node) {
  Topology t(Family::node, node);
  t.add_nodes(1, false);
  return t;
}

Topology build_fat_tree_2(const NetworkSpec& s, const NodeSpec& node, int nodes) {
  Topology t(Family::ft2, node);
  t.add_nodes(nodes, true);
  const auto [down, up] = leaf_ports(s.radix, s.oversubscription);
  const int leaves = core::ceil_div(t.gpus(), down);
  const TwoLayer tree = add_two_layer(t, leaves, s.radix, up, -1, leaves);
  for (int e = 0; e < t.gpus(); ++e) {
    t.add_endpoint_link(t.nic(e), tree.leaves[e / down]);
  }
  return t;
}

bool mrft_three_tier(const NetworkSpec& s, int gpus_per_node, int nodes) {
  const int down = leaf_ports(s.radix, s.oversubscription).down;
  return static_cast<long long>(gpus_per_node) * core::ceil_div(nodes, down) > s.radix;
}

Topology build_multi_rail_fat_tree(const NetworkSpec& s, const NodeSpec& node, int nodes) {
  if (mrft_three_tier(s, node.gpus_per_node, nodes)) {
    Topology t(Family::mrft, node);
    t.add_nodes(nodes, true);
    const int half = s.radix / 2;
    const int rails = node.gpus_per_node;
    const int pod_nodes = half * half / rails;
    const ThreeTierShape shape = mrft_shape(s, rails, nodes);
    // In a pod, rail r's NICs fill its edges / rails leaves, k/2 nodes to a leaf.
    add_three_tier(t, s, shape, [&](int e) {
      const int n = e / rails;
      const int pod = n / pod_nodes;
      const int per_rail = shape.edges[static_cast<std::size_t>(pod)] / rails;
      return pod * half + e % rails * per_rail + n % pod_nodes / half;
    });
    return t;
  }
  Topology t(Family::mrft, node);
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
  Topology t(Family::mpft, node);
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
  Topology t(Family::ft3, node);
  t.add_nodes(nodes, true);
  const int half = s.radix / 2;
  add_three_tier(t, s, ft3_shape(s, t.gpus()), [half](int e) { return e / half; });
  return t;
}

}  // namespace codesim::topologies
