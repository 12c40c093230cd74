// OpenSM's routing engines' tables: every route a shortest path on fat trees, ftree's and
// d-mod-k's shift permutations without two flows on a switch link where minhop stacks four,
// updn's roots as OpenSM finds them (and its fallback to minhop), and the refusals.
#include "topologies/forwarding.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "tests/topologies/support.hpp"
#include "topologies/build.hpp"
#include "topologies/traffic.hpp"

namespace codesim::topologies {
namespace {

using core::Bytes;
using testing::h800_node;

// The most bytes on one directed switch-to-switch link.
double busiest_switch_link(const Topology& t, const TrafficRouter& r, const LinkLoads& l) {
  double most = 0;
  for (std::size_t d = 0; d < l.bytes.size(); ++d) {
    if (is_switch(t.vertex(r.from(static_cast<int>(d))).kind) &&
        is_switch(t.vertex(r.to(static_cast<int>(d))).kind)) {
      most = std::max(most, l.bytes[d].value);
    }
  }
  return most;
}

// Switch-to-switch bytes of one flow of S = 1 byte: its switch hops.
double switch_hops(const Topology& t, const TrafficRouter& r, int src, int dst) {
  const std::vector<Flow> flow{{.src = src, .dst = dst, .bytes = Bytes(1), .via = Via::network}};
  const LinkLoads l = r.loads(flow);
  double hops = 0;
  for (std::size_t d = 0; d < l.bytes.size(); ++d) {
    if (is_switch(t.vertex(r.from(static_cast<int>(d))).kind) &&
        is_switch(t.vertex(r.to(static_cast<int>(d))).kind)) {
      hops += l.bytes[d].value;
    }
  }
  return hops;
}

TEST(Forwarding, EveryEngineRoutesFatTreesOnShortestPaths) {
  // FT3 radix 8 (16 nodes, 4 pods of 4 edge switches): a switch path is 0 hops inside an edge
  // switch, 2 inside a pod (edge, aggregation, edge) and 4 between pods (through a core); the
  // tables must give exactly those, as the even spread's shortest paths do.
  const Topology t = build_topology({.family = Family::ft3, .radix = 8}, h800_node(), 16);
  const TrafficRouter shortest(t, Spread::even);
  for (const Spread engine : {Spread::ftree, Spread::minhop, Spread::updn}) {
    const TrafficRouter r(t, engine);
    for (int src = 0; src < t.gpus(); src += 5) {
      for (int dst = 0; dst < t.gpus(); dst += 3) {
        if (src != dst) {
          ASSERT_DOUBLE_EQ(switch_hops(t, r, src, dst), switch_hops(t, shortest, src, dst))
              << src << " -> " << dst;
        }
      }
    }
  }
}

TEST(Forwarding, EveryFatTreeBuiltHereIsRoutedOnShortestPaths) {
  // The small instances' fat trees, single- and multi-plane and multi-rail, and FT3s with a
  // partial pod and with 1:3 oversubscribed cores: ftree's and minhop's tables give every NIC
  // pair a path of the fewest switch hops (MPFT: within the destination's plane).
  std::vector<std::pair<NetworkSpec, int>> trees;
  for (const auto& instance : testing::small_instances()) {
    if (instance.first.family != Family::slimfly && instance.first.family != Family::dragonfly &&
        instance.first.family != Family::node) {
      trees.push_back(instance);
    }
  }
  trees.push_back({{.family = Family::ft3, .radix = 8}, 11});
  trees.push_back({{.family = Family::ft3, .radix = 8, .oversubscription = 3}, 16});
  for (const auto& [spec, nodes] : trees) {
    const Topology t = build_topology(spec, h800_node(), nodes);
    const TrafficRouter shortest(t, Spread::even);
    for (const Spread engine : {Spread::ftree, Spread::minhop}) {
      const TrafficRouter r(t, engine);
      for (int src = 0; src < t.gpus(); src += 7) {
        for (int dst = 1; dst < t.gpus(); dst += 5) {
          if (src != dst) {
            ASSERT_DOUBLE_EQ(switch_hops(t, r, src, dst), switch_hops(t, shortest, src, dst))
                << family_name(spec.family) << " " << nodes << " nodes: " << src << " -> " << dst;
          }
        }
      }
    }
  }
}

TEST(Forwarding, ShiftPermutationOnAThreeTierTree) {
  // FT3 radix 8, 128 NICs: pods of 4 edge switches of 4 NICs and 4 aggregation switches, each
  // with 4 uplinks to cores. NIC i sends S to NIC i + 64 (pod p to pod p + 4): 16 flows leave
  // each pod, every one through a core.
  //  - d-mod-k and ftree: an edge switch's 4 consecutive destinations go up 4 different ports
  //    (d mod 4, or the least-loaded group), and the 4 flows reaching one aggregation switch
  //    (one per edge switch, destinations 4 apart) go up 4 different ports (d-mod-k: the next
  //    digit, d / 4 mod 4; ftree: the least-loaded of its 4 core groups): S per switch link.
  //  - minhop: each switch counts on its own; at an edge switch the j-th remote destination goes
  //    up port j mod 4 = d mod 4 (own NICs come 4 at a time), and at an aggregation switch the
  //    j-th destination outside its pod up port j mod 4 = d mod 4 too (16 per pod). The 4 flows
  //    an aggregation switch gets all have the same d mod 4, so all 4 leave on one port: 4 S.
  const Topology t = build_topology({.family = Family::ft3, .radix = 8}, h800_node(), 16);
  ASSERT_EQ(t.gpus(), 128);
  const double s = 1e6;
  std::vector<Flow> flows;
  for (int i = 0; i < 128; ++i) {
    flows.push_back({.src = i, .dst = (i + 64) % 128, .bytes = Bytes(s), .via = Via::network});
  }
  for (const auto& [engine, most] :
       {std::pair{Spread::destination, s}, std::pair{Spread::ftree, s},
        std::pair{Spread::minhop, 4 * s}, std::pair{Spread::updn, 4 * s}}) {
    const TrafficRouter r(t, engine);
    EXPECT_DOUBLE_EQ(busiest_switch_link(t, r, r.loads(flows)), most) << static_cast<int>(engine);
  }
}

TEST(Forwarding, UpdnFindsTheCoresAsRootsOfAThreeTierTree) {
  // OpenSM's rule: one bar of the switch's hop histogram over 90% of the 128 NICs and none other
  // over 5% (6.4). An edge switch sees 4 NICs at 0 hops, 12 at 2, 112 at 4 (87.5%); an
  // aggregation switch 16 at 1 and 112 at 3; a core all 128 at 2: the 16 cores are the roots.
  const Topology t = build_topology({.family = Family::ft3, .radix = 8}, h800_node(), 16);
  const ForwardingTables tables(t, RoutingEngine::updn);
  ASSERT_EQ(tables.roots().size(), 16u);
  for (const VertexId v : tables.roots()) {
    EXPECT_EQ(t.vertex(v).kind, VertexKind::core);
  }
}

TEST(Forwarding, UpdnWithoutRootsRoutesAsMinhop) {
  // Slim Fly q = 5 (50 routers of 7 network ports, 4 endpoints each, 200 NICs): a router sees
  // 4 NICs at 0 hops, 28 at 1 (14%) and 168 at 2 (84%): no bar over 90%, so no root; OpenSM
  // then disables updn and routes with minhop, and so do the tables here.
  const Topology t = build_topology(
      {.family = Family::slimfly, .slimfly_q = 5, .endpoints_per_router = 4}, h800_node(), 25);
  const ForwardingTables updn(t, RoutingEngine::updn);
  EXPECT_TRUE(updn.roots().empty());
  const ForwardingTables minhop(t, RoutingEngine::minhop);
  for (int a = 0; a < t.gpus(); a += 7) {
    for (int b = 0; b < t.gpus(); b += 11) {
      const auto leaf = only_switch_link(t, t.nic(a));
      ASSERT_TRUE(leaf.has_value());
      const VertexId sw = boost::target(*leaf, t.graph());
      EXPECT_EQ(updn.next(sw, t.nic(b)), minhop.next(sw, t.nic(b)));
    }
  }
}

TEST(Forwarding, FtreeRefusesWhatIsNotAFatTree) {
  const Topology t = build_topology(
      {.family = Family::slimfly, .slimfly_q = 5, .endpoints_per_router = 4}, h800_node(), 25);
  try {
    const ForwardingTables tables(t, RoutingEngine::ftree);
    FAIL() << "ftree built tables for a Slim Fly";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "ftree routes fat trees, whose switch links join adjacent levels; this network "
                 "links two switches of one level: route it with minhop or updn");
  }
}

TEST(Forwarding, TablesBeyondTheirSizeAreRefused) {
  // A full FT3 of radix 64: 5120 switches x 65,536 NICs = 335,544,320 entries > 2^26.
  const Topology t = build_topology({.family = Family::ft3, .radix = 64}, h800_node(), 8192);
  try {
    const ForwardingTables tables(t, RoutingEngine::minhop);
    FAIL() << "built tables of 335M entries";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "routing tables of 5120 switches x 65536 NICs exceed 67108864 entries: route "
                 "this network with dmodk, which computes each hop as it goes");
  }
}

}  // namespace
}  // namespace codesim::topologies
