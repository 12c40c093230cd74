// Distances kept per class of twin switches equal a breadth-first search from each destination
// (NICs end paths, switches carry them), on every family; the classes are the symmetry expected.
#include "topologies/switch_distances.hpp"

#include <gtest/gtest.h>

#include <deque>
#include <stdexcept>

#include "tests/topologies/support.hpp"
#include "topologies/build.hpp"

namespace codesim::topologies {
namespace {

using testing::h800_node;

// Hops from every vertex to `destination`, searched from it through switches only.
std::vector<int> searched(const Topology& t, VertexId destination) {
  const Graph& g = t.graph();
  std::vector<int> hops(boost::num_vertices(g), -1);
  hops[destination] = 0;
  std::deque<VertexId> queue{destination};
  while (!queue.empty()) {
    const VertexId v = queue.front();
    queue.pop_front();
    if (v != destination && !is_switch(g[v].kind)) {
      continue;
    }
    for (const auto e : boost::make_iterator_range(boost::out_edges(v, g))) {
      const VertexId u = boost::target(e, g);
      if ((is_switch(g[u].kind) || g[u].kind == VertexKind::nic) && hops[u] < 0) {
        hops[u] = hops[v] + 1;
        queue.push_back(u);
      }
    }
  }
  return hops;
}

TEST(SwitchDistances, EqualASearchFromEveryDestinationOnEveryFamily) {
  std::vector<std::pair<NetworkSpec, int>> instances = testing::small_instances();
  instances.push_back({{.family = Family::ft3, .radix = 8, .oversubscription = 3}, 16});
  instances.push_back({{.family = Family::ft2, .radix = 8}, 3});  // a leaf partly used
  for (const auto& [spec, nodes] : instances) {
    const Topology t = build_topology(spec, h800_node(), nodes);
    const SwitchDistances distances(t);
    const Graph& g = t.graph();
    for (const auto destination : boost::make_iterator_range(boost::vertices(g))) {
      const VertexKind kind = g[destination].kind;
      if (kind != VertexKind::nic && !is_switch(kind)) {
        continue;
      }
      const std::vector<int> expected = searched(t, destination);
      const SwitchDistances::View view = distances.to(destination);
      for (const auto v : boost::make_iterator_range(boost::vertices(g))) {
        ASSERT_EQ(view[v], expected[v])
            << family_name(spec.family) << ": from " << v << " to " << destination;
      }
    }
  }
}

// A radix-8 FT3 of 16 nodes (128 endpoints, the most it holds): 8 pods of 4 leaves and 4 spines,
// 16 cores in 4 groups, a group joined to the same spines (spine j of every pod). Twins: a pod's
// leaves (8 classes), a core group (4 classes); every spine is joined to its own pod's leaves and
// its own core group, so each is its own class (32): 44 classes for 80 switches.
TEST(SwitchDistances, TwinsAreAPodsLeavesAndACoreGroup) {
  const Topology t = build_topology({.family = Family::ft3, .radix = 8}, h800_node(), 16);
  EXPECT_EQ(SwitchDistances(t).classes(), 8 + 32 + 4);
}

TEST(SwitchDistances, ANicOnTwoSwitchesIsRefused) {
  Topology t = build_topology({.family = Family::ft2, .radix = 8}, h800_node(), 2);
  const Graph& g = t.graph();
  VertexId other_leaf = 0;
  const VertexId nic = t.nic(0);
  const VertexId leaf = boost::target(*only_switch_link(t, nic), g);
  for (const auto v : boost::make_iterator_range(boost::vertices(g))) {
    if (g[v].kind == VertexKind::leaf && v != leaf) {
      other_leaf = v;
    }
  }
  t.add_endpoint_link(nic, other_leaf);
  try {
    SwitchDistances{t};
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "routing needs every NIC on at most one switch link; nic_n0_0 has more");
  }
}

}  // namespace
}  // namespace codesim::topologies
