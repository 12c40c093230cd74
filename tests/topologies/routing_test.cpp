// Routes: valid paths, minimal hop counts within the diameter, ECMP sets, the MPFT plane rule.
#include "topologies/routing.hpp"

#include <gtest/gtest.h>

#include "tests/topologies/support.hpp"
#include "topologies/build.hpp"
#include "topologies/properties.hpp"

namespace codesim::topologies {
namespace {

using testing::h800_node;

// A path is valid when each link joins the vertices on either side of it, it starts at the source
// GPU and ends at the destination GPU, and it never passes through a GPU in between except as an
// NVLink forwarder in MPFT.
void expect_valid(const Topology& t, const Path& p, int a, int b) {
  const Graph& g = t.graph();
  ASSERT_EQ(p.vertices.size(), p.links.size() + 1);
  EXPECT_EQ(p.vertices.front(), t.gpu(a));
  EXPECT_EQ(p.vertices.back(), t.gpu(b));
  for (std::size_t i = 0; i < p.links.size(); ++i) {
    const auto e = p.links[i];
    const auto u = boost::source(e, g);
    const auto v = boost::target(e, g);
    EXPECT_TRUE((u == p.vertices[i] && v == p.vertices[i + 1]) ||
                (v == p.vertices[i] && u == p.vertices[i + 1]))
        << "link " << i;
  }
}

void expect_all_routes_valid(const Topology& t, const NetworkSpec& s) {
  const int diameter = closed_form(s, t.node_spec(), t.nodes(), UnitPrices{}).diameter;
  const int step = std::max(1, t.gpus() / 24);
  for (int a = 0; a < t.gpus(); a += step) {
    for (int b = 0; b < t.gpus(); b += step) {
      const PathSet set = route(t, a, b, {.max_paths = 16});
      ASSERT_FALSE(set.paths.empty());
      EXPECT_LE(set.switch_hops, diameter) << family_name(s.family) << " " << a << "->" << b;
      EXPECT_GE(set.count, set.paths.size());
      for (const auto& p : set.paths) {
        expect_valid(t, p, a, b);
        EXPECT_EQ(static_cast<int>(p.links.size()), set.hops);
      }
    }
  }
}

TEST(Routing, EveryFamilyGivesValidMinimalRoutes) {
  for (const auto& [s, nodes] : testing::small_instances()) {
    expect_all_routes_valid(build_topology(s, h800_node(), nodes), s);
  }
}

TEST(Routing, SameNodeGoesOverNvlink) {
  const Topology t = build_topology({.family = Family::ft2, .radix = 8}, h800_node(), 4);
  const PathSet set = route(t, 0, 5);
  EXPECT_EQ(set.hops, 2);  // GPU - NVSwitch - GPU
  EXPECT_EQ(set.count, 1u);
  EXPECT_EQ(t.link(set.paths[0].links[0]).kind, LinkKind::nvlink);
}

TEST(Routing, FatTreeEcmpSets) {
  // FT2: different leaves -> one path per spine (k/2). FT3: different pods -> (k/2)^2 paths.
  const Topology ft2 = build_topology({.family = Family::ft2, .radix = 8}, h800_node(), 4);
  const PathSet across = route(ft2, 0, 31);
  EXPECT_EQ(across.count, 4u);
  EXPECT_EQ(across.switch_hops, 2);
  EXPECT_EQ(across.hops, 6);  // PCIe, NIC-leaf, leaf-spine, spine-leaf, leaf-NIC, PCIe
  const Topology ft3 = build_topology({.family = Family::ft3, .radix = 8}, h800_node(), 16);
  const PathSet pods = route(ft3, 0, 127, {.max_paths = 100});
  EXPECT_EQ(pods.count, 16u);
  EXPECT_EQ(pods.paths.size(), 16u);
  EXPECT_EQ(pods.switch_hops, 4);
}

TEST(Routing, MpftCrossesNvlinkToTheDestinationsPlane) {
  // GPU 1 of node 0 -> GPU 6 of node 3: NVLink to GPU 6 of node 0 (plane 6), then plane 6.
  const NetworkSpec s{.family = Family::mpft, .radix = 8, .planes = 8};
  const Topology t = build_topology(s, h800_node(), 16);
  const int src = 0 * 8 + 1;
  const int dst = 3 * 8 + 6;
  const PathSet set = route(t, src, dst);
  const Path& p = set.paths.front();
  EXPECT_EQ(t.link(p.links[0]).kind, LinkKind::nvlink);
  EXPECT_EQ(p.vertices[2], t.gpu(0, 6));
  for (const auto e : p.links) {
    if (t.link(e).kind == LinkKind::ib) {
      EXPECT_EQ(t.link(e).plane, 6);
    }
  }
  EXPECT_EQ(t.link(p.links.back()).kind, LinkKind::pcie);
  // Forwarding at the destination: plane 1 to GPU 1 of node 3, then NVLink to GPU 6.
  NetworkSpec at_dst = s;
  at_dst.plane_crossing = PlaneCrossing::at_destination;
  const Topology t2 = build_topology(at_dst, h800_node(), 16);
  const PathSet forwarded = route(t2, src, dst);
  const Path& q = forwarded.paths.front();
  EXPECT_EQ(t2.link(q.links[0]).kind, LinkKind::pcie);
  EXPECT_EQ(t2.link(q.links[1]).plane, 1);
  EXPECT_EQ(q.vertices[q.vertices.size() - 3], t2.gpu(3, 1));
  EXPECT_EQ(t2.link(q.links.back()).kind, LinkKind::nvlink);
  // Same index: no NVLink at all.
  const PathSet same_index = route(t, 2, 3 * 8 + 2);
  for (const auto e : same_index.paths.front().links) {
    EXPECT_NE(t.link(e).kind, LinkKind::nvlink);
  }
}

TEST(Routing, LatenciesAddUpToTheMeasuredOnes) {
  // Same leaf: 2.8 us NIC to NIC; across the spine: 2.8 + 2 x 0.45 = 3.7 us (DeepSeek's figures).
  // Radix 32: 16 endpoints (2 nodes) per leaf.
  const Topology t = build_topology({.family = Family::ft2, .radix = 32}, h800_node(), 4);
  auto nic_to_nic = [&](const Path& p) {
    double s = 0;
    for (const auto e : p.links) {
      s += t.link(e).kind == LinkKind::ib ? t.link(e).latency.value : 0;
    }
    return s;
  };
  EXPECT_EQ(route(t, 0, 8).switch_hops, 0);
  EXPECT_NEAR(nic_to_nic(route(t, 0, 8).paths[0]), 2.8e-6, 1e-12);
  EXPECT_EQ(route(t, 0, 16).switch_hops, 2);
  EXPECT_NEAR(nic_to_nic(route(t, 0, 16).paths[0]), 3.7e-6, 1e-12);
}

TEST(Routing, RejectsGpusOutsideTheTopology) {
  const Topology t = build_topology({.family = Family::node}, h800_node(), 1);
  EXPECT_THROW(route(t, 0, 8), std::out_of_range);
}

}  // namespace
}  // namespace codesim::topologies

namespace codesim::topologies {
namespace {

TEST(Routing, FailedPlaneTrafficTakesTheNextPlane) {
  // Plane 6 out of service: GPU 1 of node 0 -> GPU 6 of node 3 goes over plane 7, with NVLink on
  // both nodes; bisection loses one plane in eight.
  const NetworkSpec s{.family = Family::mpft, .radix = 8, .planes = 8};
  Topology t = build_topology(s, testing::h800_node(), 16);
  const auto full = measure(t, s, UnitPrices{}).bisection;
  t.set_failed_planes({6});
  const PathSet set = route(t, 1, 3 * 8 + 6);
  const Path& p = set.paths.front();
  EXPECT_EQ(p.vertices[2], t.gpu(0, 7));
  EXPECT_EQ(p.vertices[p.vertices.size() - 3], t.gpu(3, 7));
  EXPECT_EQ(t.link(p.links.front()).kind, LinkKind::nvlink);
  EXPECT_EQ(t.link(p.links.back()).kind, LinkKind::nvlink);
  for (const auto e : p.links) {
    EXPECT_NE(t.link(e).plane, 6);
  }
  EXPECT_DOUBLE_EQ(measure(t, s, UnitPrices{}).bisection.value, full.value * 7 / 8);
}

}  // namespace
}  // namespace codesim::topologies
