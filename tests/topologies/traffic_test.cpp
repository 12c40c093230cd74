// Link loads of flows: conservation at every vertex, even spreading over equal-cost paths, the
// MPFT plane rule, hashed paths that are routes, and the latency of the longest path.
#include "topologies/traffic.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <set>

#include "tests/topologies/support.hpp"
#include "topologies/build.hpp"
#include "topologies/routing.hpp"

namespace codesim::topologies {
namespace {

using core::Bytes;
using testing::h800_node;

// Net bytes out of each vertex: out-going minus in-coming over its links.
std::map<VertexId, double> net_out(const TrafficRouter& r, const LinkLoads& l) {
  std::map<VertexId, double> net;
  for (std::size_t d = 0; d < l.bytes.size(); ++d) {
    net[r.from(static_cast<int>(d))] += l.bytes[d].value;
    net[r.to(static_cast<int>(d))] -= l.bytes[d].value;
  }
  return net;
}

// What is sent is received: at every vertex, net out = bytes its GPU sends - bytes it receives
// (zero at switches, NICs and forwarding GPUs).
void expect_conserved(const Topology& t, Spread spread, int flows_count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> gpu(0, t.gpus() - 1);
  std::vector<Flow> flows;
  std::map<VertexId, double> expected;
  for (int i = 0; i < flows_count; ++i) {
    const Flow f{.src = gpu(rng),
                 .dst = gpu(rng),
                 .bytes = Bytes(1000.0 * (1 + i % 7)),
                 .via = i % 3 == 0 ? Via::network : Via::shortest};
    flows.push_back(f);
    if (f.src != f.dst) {
      expected[t.gpu(f.src)] += f.bytes.value;
      expected[t.gpu(f.dst)] -= f.bytes.value;
    }
  }
  const TrafficRouter r(t, spread);
  const auto net = net_out(r, r.loads(flows));
  for (const auto& [v, bytes] : net) {
    EXPECT_NEAR(bytes, expected[v], 1e-6) << family_name(t.family()) << " vertex " << v;
  }
}

TEST(Traffic, WhatIsSentIsReceivedOnEveryFamily) {
  for (const auto& [spec, nodes] : testing::small_instances()) {
    const Topology t = build_topology(spec, h800_node(), nodes);
    expect_conserved(t, Spread::even, 300, 7);
    expect_conserved(t, Spread::hashed, 300, 8);
    expect_conserved(t, Spread::destination, 300, 11);
    expect_conserved(t, Spread::minhop, 300, 12);
    expect_conserved(t, Spread::updn, 300, 13);
    if (spec.family == Family::slimfly || spec.family == Family::dragonfly) {
      expect_conserved(t, Spread::valiant, 300, 9);
      expect_conserved(t, Spread::ugal, 300, 10);
    } else {
      expect_conserved(t, Spread::ftree, 300, 14);
    }
  }
}

TEST(Traffic, SummingFlowsPerPairOfSwitchesChangesNoLinksBytes) {
  // The router sums what flows between the same two switches before spreading it; spreading is
  // linear, so routing the flows together gives each link the sum of what each flow alone gives.
  for (const auto& [spec, nodes] : testing::small_instances()) {
    const Topology t = build_topology(spec, h800_node(), nodes);
    const bool routers = spec.family == Family::slimfly || spec.family == Family::dragonfly;
    for (const Spread spread : {Spread::even, routers ? Spread::valiant : Spread::even}) {
      const TrafficRouter r(t, spread);
      std::vector<Flow> flows;
      for (int a = 0; a < t.gpus(); a += 3) {
        for (int b = 1; b < t.gpus(); b += 5) {
          flows.push_back({.src = a, .dst = b, .bytes = Bytes(1000.0 + a + 7 * b)});
        }
      }
      const LinkLoads together = r.loads(flows);
      std::vector<double> alone(together.bytes.size(), 0.0);
      for (const Flow& f : flows) {
        const LinkLoads one = r.loads(std::vector<Flow>{f});
        for (std::size_t d = 0; d < alone.size(); ++d) {
          alone[d] += one.bytes[d].value;
        }
      }
      for (std::size_t d = 0; d < alone.size(); ++d) {
        EXPECT_NEAR(together.bytes[d].value, alone[d], 1e-6 * (1 + alone[d]))
            << family_name(t.family()) << " " << r.describe(static_cast<int>(d));
      }
    }
  }
}

TEST(Traffic, EveryPairLoadsTheLinksAsItsFlows) {
  // An all-to-all as one term: per GPU, its NVLink and NIC links carry bytes x the other GPUs of
  // the set on its node (on other nodes), per pair of switches bytes x the pairs between their
  // GPUs on different nodes; the spreads are linear, so that is what the n(n-1) flows give. UGAL
  // decides on the whole transfer, hashed and MPFT go pair by pair. Every third GPU from GPU 1
  // (a partial set: nodes with 2 or 3 of their GPUs, rails on different leaves on MRFT), on
  // every small instance and spread; then every GPU of a 1.5-pod FT3.
  std::vector<std::pair<NetworkSpec, int>> cases = testing::small_instances();
  cases.push_back({{.family = Family::ft3, .radix = 8}, 3});
  for (const auto& [spec, nodes] : cases) {
    const Topology t = build_topology(spec, h800_node(), nodes);
    const bool routers = spec.family == Family::slimfly || spec.family == Family::dragonfly;
    std::vector<Spread> spreads{Spread::even, Spread::hashed};
    if (routers) {
      spreads.insert(spreads.end(), {Spread::valiant, Spread::ugal});
    }
    for (const Spread spread : spreads) {
      const TrafficRouter r(t, spread);
      EveryPair every{.bytes = Bytes(3000)};
      for (int gpu = nodes == 3 ? 0 : 1; gpu < t.gpus(); gpu += nodes == 3 ? 1 : 3) {
        every.gpus.push_back(gpu);
      }
      std::vector<Flow> flows;
      for (const int a : every.gpus) {
        for (const int b : every.gpus) {
          if (a != b) {
            flows.push_back({.src = a, .dst = b, .bytes = every.bytes});
          }
        }
      }
      const LinkLoads pairs = r.loads(flows);
      const LinkLoads one = r.loads({}, every);
      const std::string what = std::string(family_name(t.family())) + " spread " + std::to_string(static_cast<int>(spread));
      for (std::size_t d = 0; d < pairs.bytes.size(); ++d) {
        EXPECT_NEAR(one.bytes[d].value, pairs.bytes[d].value, 1e-9 * (1 + pairs.bytes[d].value))
            << what << " " << r.describe(static_cast<int>(d));
      }
      EXPECT_DOUBLE_EQ(one.latency.value, pairs.latency.value) << what;
    }
  }
  const Topology t = build_topology({.family = Family::ft2, .radix = 8}, h800_node(), 4);
  EXPECT_THROW(TrafficRouter(t, Spread::even).loads({}, EveryPair{.gpus = {1, 2, 1}}),
               std::invalid_argument);
  EXPECT_THROW(TrafficRouter(t, Spread::even).loads({}, EveryPair{.gpus = {1, 32}}),
               std::out_of_range);
}

// Bytes on router-to-router links, per directed link.
std::vector<double> router_link_bytes(const Topology& t, const TrafficRouter& r, const LinkLoads& l) {
  std::vector<double> out;
  for (std::size_t d = 0; d < l.bytes.size(); ++d) {
    if (t.vertex(r.from(static_cast<int>(d))).kind == VertexKind::router &&
        t.vertex(r.to(static_cast<int>(d))).kind == VertexKind::router) {
      out.push_back(l.bytes[d].value);
    }
  }
  return out;
}

double busiest(const std::vector<double>& bytes) {
  return bytes.empty() ? 0 : *std::max_element(bytes.begin(), bytes.end());
}

// Router hops from `from` to every vertex, through routers only.
std::vector<int> router_hops(const Topology& t, VertexId from) {
  const Graph& g = t.graph();
  std::vector<int> dist(t.vertex_count(), -1);
  dist[from] = 0;
  std::vector<VertexId> queue{from};
  for (std::size_t i = 0; i < queue.size(); ++i) {
    for (const auto u : boost::make_iterator_range(boost::adjacent_vertices(queue[i], g))) {
      if (g[u].kind == VertexKind::router && dist[u] < 0) {
        dist[u] = dist[queue[i]] + 1;
        queue.push_back(u);
      }
    }
  }
  return dist;
}

TEST(Traffic, ValiantSendsAnEqualShareThroughEveryRouter) {
  // Slim Fly q = 5, 4 endpoints per router, 50 routers. GPU 0 (router a) to GPU 8 (router b):
  // 1/50 of S detours through each router r, so the router links carry
  // S/50 x sum over r of (hops(a, r) + hops(r, b)) bytes in all, and each NIC link S.
  const Topology t = build_topology(
      {.family = Family::slimfly, .slimfly_q = 5, .endpoints_per_router = 4}, h800_node(), 25);
  const TrafficRouter r(t, Spread::valiant);
  const double s = 5e6;
  const LinkLoads l = r.loads(std::vector<Flow>{{.src = 0, .dst = 8, .bytes = Bytes(s)}});
  const auto router_of = [&](int gpu) {
    for (const auto v : boost::make_iterator_range(boost::adjacent_vertices(t.nic(gpu), t.graph()))) {
      if (t.vertex(v).kind == VertexKind::router) {
        return v;
      }
    }
    return VertexId{};
  };
  const auto from_a = router_hops(t, router_of(0));
  const auto from_b = router_hops(t, router_of(8));
  double hops = 0;
  int routers = 0;
  for (VertexId v = 0; v < t.vertex_count(); ++v) {
    if (t.vertex(v).kind == VertexKind::router) {
      hops += from_a[v] + from_b[v];
      ++routers;
    }
  }
  ASSERT_EQ(routers, 50);
  const auto on_routers = router_link_bytes(t, r, l);
  EXPECT_NEAR(std::accumulate(on_routers.begin(), on_routers.end(), 0.0), s / 50 * hops, 1e-3);
  // Longer than the minimal path: at least the two legs' worth of router hops.
  const TrafficRouter minimal(t, Spread::even);
  EXPECT_GT(l.latency.value,
            minimal.loads(std::vector<Flow>{{.src = 0, .dst = 8, .bytes = Bytes(s)}}).latency.value);
}

TEST(Traffic, UgalDetoursOnlyWhatUnloadsTheBusiestLink) {
  // GPUs 0-3 sit on router (0,0,0), GPUs 4-7 on its neighbour (0,0,1); through the network
  // (Via::network) the four flows of S share the one minimal path, the direct link, with 4 S.
  // Valiant spreads them over every router; UGAL detours the share (a multiple of 1/32) that
  // makes the busiest link least busy: less than 4 S, no more than Valiant's, and not below the
  // S each NIC link carries whatever the route.
  const Topology t = build_topology(
      {.family = Family::slimfly, .slimfly_q = 5, .endpoints_per_router = 4}, h800_node(), 25);
  const double s = 1e6;
  std::vector<Flow> flows;
  for (int i = 0; i < 4; ++i) {
    flows.push_back({.src = i, .dst = 4 + i, .bytes = Bytes(s), .via = Via::network});
  }
  const auto busiest_with = [&](Spread spread) {
    const TrafficRouter r(t, spread);
    return busiest(router_link_bytes(t, r, r.loads(flows)));
  };
  EXPECT_DOUBLE_EQ(busiest_with(Spread::even), 4 * s);
  const double ugal = busiest_with(Spread::ugal);
  EXPECT_LT(ugal, 4 * s);
  EXPECT_LE(ugal, busiest_with(Spread::valiant) + 1e-6);
  EXPECT_GE(ugal, s - 1e-6);
  // Every GPU to every other: nothing to unload (the NIC links are the busiest on either route),
  // so UGAL keeps the minimal paths.
  std::vector<Flow> all;
  for (int a = 0; a < t.gpus(); ++a) {
    for (int b = 0; b < t.gpus(); ++b) {
      all.push_back({.src = a, .dst = b, .bytes = Bytes(s)});
    }
  }
  const TrafficRouter even(t, Spread::even);
  const TrafficRouter ugal_router(t, Spread::ugal);
  EXPECT_EQ(router_link_bytes(t, even, even.loads(all)),
            router_link_bytes(t, ugal_router, ugal_router.loads(all)));
}

// Tiers are values (link kind, the ends' kinds, and for grouped routers inside or between
// groups); their names are made for the reports only. A Dragonfly with a = 2 routers of p = 2
// endpoints per group and h = 1: 8 GPUs fill ceil(8 / (a p)) = 2 groups; each group's routers
// share one local link (2 in all), and each group's a h = 2 global ports pair with the other
// group's (2 global links). Each link is a tier member once per direction.
TEST(Traffic, TiersAreLinkAndEndKinds) {
  const Topology t = build_topology({.family = Family::dragonfly,
                                     .endpoints_per_router = 2,
                                     .dragonfly_a = 2,
                                     .dragonfly_h = 1,
                                     .dragonfly_groups = 3},
                                    h800_node(), 1);
  const TrafficRouter r(t, Spread::even);
  std::map<LinkTier, int> links;
  for (int d = 0; d < 2 * static_cast<int>(t.links().size()); ++d) {
    ++links[r.tier(d)];
  }
  using Reach = LinkTier::Reach;
  const LinkTier local{LinkKind::ib, VertexKind::router, VertexKind::router, Reach::local};
  const LinkTier global{LinkKind::ib, VertexKind::router, VertexKind::router, Reach::global};
  EXPECT_EQ(links[local], 2 * 2);
  EXPECT_EQ(links[global], 2 * 2);
  EXPECT_EQ(tier_name(local), "ib router -> router (local)");
  EXPECT_EQ(tier_name({LinkKind::ib, VertexKind::leaf, VertexKind::spine}), "ib leaf -> spine");
}

TEST(Traffic, NonMinimalRoutingNeedsRouters) {
  const Topology t = build_topology({.family = Family::ft2, .radix = 8}, h800_node(), 4);
  try {
    const TrafficRouter r(t, Spread::valiant);
    FAIL() << "a fat tree has no routers to detour through";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "Valiant and UGAL routing detour through routers: Slim Fly and Dragonfly only");
  }
}

TEST(Traffic, InsideANodeOnlyTheTwoNvlinksCarryTheFlow) {
  const Topology t = build_topology({.family = Family::node}, h800_node(), 1);
  const TrafficRouter r(t, Spread::even);
  const std::vector<Flow> flows{{.src = 1, .dst = 6, .bytes = Bytes(5e6)}};
  const LinkLoads l = r.loads(flows);
  int used = 0;
  for (std::size_t d = 0; d < l.bytes.size(); ++d) {
    if (l.bytes[d].value > 0) {
      ++used;
      EXPECT_EQ(l.bytes[d].value, 5e6);
      EXPECT_EQ(t.link(t.links()[d / 2]).kind, LinkKind::nvlink);
    }
  }
  EXPECT_EQ(used, 2);
  // Half the end-to-end NVLink latency on each side.
  EXPECT_DOUBLE_EQ(l.latency.value, 3.33e-6);
}

TEST(Traffic, EvenSpreadSplitsOverEverySpine) {
  // FT2 radix 8: leaves of 4 NICs, 4 spines. GPU 0 (node 0, leaf 0) to GPU 31 (node 3, leaf 1):
  // the leaf splits S over its 4 up-links, each spine sends S/4 down.
  const Topology t = build_topology({.family = Family::ft2, .radix = 8}, h800_node(), 4);
  const TrafficRouter r(t, Spread::even);
  const double s = 8e6;
  const std::vector<Flow> flows{{.src = 0, .dst = 31, .bytes = Bytes(s)}};
  const LinkLoads l = r.loads(flows);
  std::multiset<double> switch_links;
  for (std::size_t d = 0; d < l.bytes.size(); ++d) {
    const VertexKind a = t.vertex(r.from(static_cast<int>(d))).kind;
    const VertexKind b = t.vertex(r.to(static_cast<int>(d))).kind;
    if (is_switch(a) && is_switch(b) && l.bytes[d].value > 0) {
      switch_links.insert(l.bytes[d].value);
    }
  }
  EXPECT_EQ(switch_links,
            (std::multiset<double>{s / 4, s / 4, s / 4, s / 4, s / 4, s / 4, s / 4, s / 4}));
  // NIC to leaf and leaf to NIC (half of 2.8 us each) plus two switch-to-switch links.
  EXPECT_NEAR(l.latency.value, 2.8e-6 + 2 * 0.45e-6, 1e-15);
}

TEST(Traffic, HashedFlowTakesOneOfTheEqualCostRoutes) {
  const Topology t = build_topology({.family = Family::ft3, .radix = 8}, h800_node(), 16);
  const TrafficRouter r(t, Spread::hashed);
  for (int b = 8; b < t.gpus(); b += 13) {
    const std::vector<Flow> flows{{.src = 3, .dst = b, .bytes = Bytes(1.0)}};
    const LinkLoads l = r.loads(flows);
    std::set<int> used;
    for (std::size_t d = 0; d < l.bytes.size(); ++d) {
      if (l.bytes[d].value > 0) {
        used.insert(static_cast<int>(d / 2));
      }
    }
    const PathSet set = route(t, 3, b, {.max_paths = 1000});
    ASSERT_EQ(set.count, set.paths.size());
    bool found = false;
    for (const Path& p : set.paths) {
      std::set<int> ids;
      for (const EdgeId e : p.links) {
        ids.insert(t.link(e).id);
      }
      found = found || ids == used;
    }
    EXPECT_TRUE(found) << "3 -> " << b;
  }
}

// The GPUs whose NICs hang off each leaf, in GPU order.
std::map<VertexId, std::vector<int>> gpus_by_leaf(const Topology& t) {
  std::map<VertexId, std::vector<int>> out;
  for (int gpu = 0; gpu < t.gpus(); ++gpu) {
    out[boost::target(*only_switch_link(t, t.nic(gpu)), t.graph())].push_back(gpu);
  }
  return out;
}

// Bytes on each leaf-to-spine and spine-to-leaf link (directed), largest first.
std::vector<double> switch_link_bytes(const Topology& t, const TrafficRouter& r,
                                      const LinkLoads& l) {
  std::vector<double> out;
  for (std::size_t d = 0; d < l.bytes.size(); ++d) {
    if (is_switch(t.vertex(r.from(static_cast<int>(d))).kind) &&
        is_switch(t.vertex(r.to(static_cast<int>(d))).kind) && l.bytes[d].value > 0) {
      out.push_back(l.bytes[d].value);
    }
  }
  std::sort(out.rbegin(), out.rend());
  return out;
}

TEST(Traffic, DestinationRoutingGivesEachDestinationBehindALeafItsOwnPort) {
  // FT2 radix 8: leaves of 4 NICs and 4 up-links. The 4 GPUs of one leaf each send S to one of
  // another leaf's 4 (through the NICs): d-mod-k numbers those destinations 4L..4L+3, so the
  // leaf sends each up a different port (d mod 4) and every spine brings one down: 8 switch
  // links of S each, never two flows on one.
  const Topology t = build_topology({.family = Family::ft2, .radix = 8}, h800_node(), 4);
  const auto leaves = gpus_by_leaf(t);
  ASSERT_GE(leaves.size(), 3u);
  const std::vector<int>& from = leaves.begin()->second;
  const std::vector<int>& to = std::next(leaves.begin())->second;
  ASSERT_EQ(from.size(), 4u);
  const double s = 1e6;
  std::vector<Flow> flows;
  for (std::size_t i = 0; i < 4; ++i) {
    flows.push_back({.src = from[i], .dst = to[i], .bytes = Bytes(s), .via = Via::network});
  }
  const TrafficRouter r(t, Spread::destination);
  EXPECT_EQ(switch_link_bytes(t, r, r.loads(flows)), std::vector<double>(8, s));
  // One path per destination: the same destination from a third leaf comes down through the
  // same spine, so that spine's link to the destination's leaf carries both (2 S).
  flows.push_back({.src = std::next(leaves.begin(), 2)->second.front(),
                   .dst = to.front(),
                   .bytes = Bytes(s),
                   .via = Via::network});
  EXPECT_EQ(switch_link_bytes(t, r, r.loads(flows)).front(), 2 * s);
}

TEST(Traffic, MpftCrossesNvlinkToTheDestinationsPlaneFirst) {
  const Topology t =
      build_topology({.family = Family::mpft, .radix = 8, .planes = 8}, h800_node(), 16);
  const TrafficRouter r(t, Spread::even);
  // GPU 1 of node 0 to GPU 2 of node 3: NVLink 1 -> 2 on node 0, then plane 2's NICs.
  const std::vector<Flow> flows{{.src = 1, .dst = 3 * 8 + 2, .bytes = Bytes(1e6)}};
  const LinkLoads l = r.loads(flows);
  const Graph& g = t.graph();
  auto load = [&](VertexId a, VertexId b) {
    const int id = t.link(boost::edge(a, b, g).first).id;
    const double forward = l.bytes[static_cast<std::size_t>(directed(id, false))].value;
    const double back = l.bytes[static_cast<std::size_t>(directed(id, true))].value;
    return r.from(directed(id, false)) == a ? forward : back;
  };
  EXPECT_EQ(load(t.gpu(1), t.nvswitch(0)), 1e6);
  EXPECT_EQ(load(t.nvswitch(0), t.gpu(2)), 1e6);
  EXPECT_EQ(load(t.gpu(2), t.nic(2)), 1e6);
  EXPECT_EQ(load(t.gpu(1), t.nic(1)), 0.0);
  EXPECT_EQ(load(t.nic(3 * 8 + 2), t.gpu(3 * 8 + 2)), 1e6);
}

TEST(Traffic, RdmaInsideANodeLoopsThroughTheLeaf) {
  const Topology t = build_topology({.family = Family::ft2, .radix = 8}, h800_node(), 4);
  const TrafficRouter r(t, Spread::even);
  const std::vector<Flow> flows{{.src = 0, .dst = 1, .bytes = Bytes(1e6), .via = Via::network}};
  const LinkLoads l = r.loads(flows);
  double nvlink = 0;
  double pcie = 0;
  for (std::size_t d = 0; d < l.bytes.size(); ++d) {
    const LinkKind k = t.link(t.links()[d / 2]).kind;
    if (k == LinkKind::nvlink) {
      nvlink += l.bytes[d].value;
    } else if (k == LinkKind::pcie) {
      pcie += l.bytes[d].value;
    }
  }
  EXPECT_EQ(nvlink, 0.0);
  EXPECT_EQ(pcie, 2e6);  // out of GPU 0 and into GPU 1
  EXPECT_NEAR(l.latency.value, 2.8e-6, 1e-15);
}

TEST(Traffic, ForwardedHopsAddTheirLatencies) {
  // GPU 0 -> GPU 31 over IB across leaves (2.8 + 2 x 0.45 us), then GPU 31 forwards over NVLink
  // to GPU 30 (3.33 us): the transfer's latency is the sum, its bytes move at once.
  const Topology t = build_topology({.family = Family::ft2, .radix = 8}, h800_node(), 4);
  const TrafficRouter r(t, Spread::even);
  const std::vector<Flow> flows{{.src = 0, .dst = 31, .bytes = Bytes(1e6)},
                                {.src = 31, .dst = 30, .bytes = Bytes(1e6), .hop = 1}};
  EXPECT_NEAR(r.loads(flows).latency.value, 2.8e-6 + 2 * 0.45e-6 + 3.33e-6, 1e-15);
}

TEST(Traffic, GpuOutsideTheTopologyIsRejected) {
  const Topology t = build_topology({.family = Family::node}, h800_node(), 1);
  const TrafficRouter r(t, Spread::even);
  const std::vector<Flow> flows{{.src = 0, .dst = 8, .bytes = Bytes(1.0)}};
  EXPECT_THROW(r.loads(flows), std::out_of_range);
}

}  // namespace
}  // namespace codesim::topologies
