// Collectives: their bytes (what each rank receives) and their times on the platform against the
// textbook formulas.
#include "sim/comm/collective.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "sim/comm/algorithm_choice.hpp"
#include "sim/engine/platform.hpp"
#include "tests/topologies/support.hpp"
#include "topologies/build.hpp"

namespace codesim::engine {
namespace {

using namespace codesim::comm;  // what these tests exercise beside the engine

using core::Bytes;
using topologies::Family;

// Fat trees of radix 8 (a single node reads no switch parameters).
topologies::Topology build(Family f, int nodes) {
  const bool tree = f != Family::node;
  return topologies::build_topology(
      {.family = f, .radix = tree ? 8 : 64, .planes = f == Family::mpft ? 8 : 1},
      topologies::testing::h800_node(), nodes);
}

using topologies::first_gpus;

// An all-to-all of `size` per rank over `p` GPUs starting at `first`.
CollectiveSpec all_to_all(int p, double size, int first = 0) {
  CollectiveSpec c{.kind = CollectiveKind::all_to_all,
                   .algorithm = CollectiveAlgorithm::direct,
                   .gpus = first_gpus(p),
                   .size = Bytes(size)};
  for (int& g : c.gpus) {
    g += first;
  }
  return c;
}

// Bytes each GPU receives over all phases (a phase counts `repeat` times).
std::map<int, double> received(const std::vector<Transfer>& phases) {
  std::map<int, double> r;
  for (const auto& t : phases) {
    for (const auto& f : t.flows) {
      r[f.dst] += f.bytes.value * t.repeat;
    }
    const auto& every = t.every_pair;  // each receives from every other
    for (const int gpu : every.gpus) {
      r[gpu] += every.bytes.value * static_cast<double>(every.gpus.size() - 1) * t.repeat;
    }
  }
  return r;
}

TEST(Collective, EachRankReceivesWhatTheAlgorithmPromises) {
  // p ranks, buffer S, n = S / p:
  //   all-to-all: (p - 1) n; all-gather, reduce-scatter: (p - 1) n (ring or direct);
  //   all-reduce ring: 2 (p - 1) n; hierarchical (g per node, m nodes): 2 (g - 1) S / g +
  //   2 (m - 1) S / (g m); send: S to rank 1.
  const auto t = build(Family::ft2, 4);
  const int p = 32;
  const double s = 64e6;
  const double n = s / p;
  using K = CollectiveKind;
  using A = CollectiveAlgorithm;
  const std::vector<std::tuple<K, A, double>> cases = {
      {K::all_to_all, A::direct, (p - 1) * n},
      {K::all_gather, A::ring, (p - 1) * n},
      {K::all_gather, A::direct, (p - 1) * n},
      {K::reduce_scatter, A::ring, (p - 1) * n},
      {K::all_reduce, A::ring, 2 * (p - 1) * n},
      {K::all_reduce, A::hierarchical, 2 * 7 * s / 8 + 2 * 3 * s / 32},
  };
  for (const auto& [kind, algorithm, expected] : cases) {
    const auto phases = collective_transfers(
        {.kind = kind, .algorithm = algorithm, .gpus = first_gpus(p), .size = Bytes(s)}, t, 0);
    for (const auto& [gpu, bytes] : received(phases)) {
      EXPECT_NEAR(bytes, expected, 1e-6) << collective_kind_name(kind) << " "
                                         << collective_algorithm_name(algorithm) << " " << gpu;
    }
    EXPECT_EQ(received(phases).size(), static_cast<std::size_t>(p));
  }
  const auto send = collective_transfers(
      {.kind = K::send, .algorithm = A::direct, .gpus = {3, 17}, .size = Bytes(s)}, t, 0);
  EXPECT_EQ(received(send), (std::map<int, double>{{17, s}}));
}

TEST(Collective, PhasesAreChainedFromTheFirstIndex) {
  const auto t = build(Family::ft2, 4);
  const auto phases = collective_transfers({.kind = CollectiveKind::all_reduce,
                                            .algorithm = CollectiveAlgorithm::hierarchical,
                                            .gpus = first_gpus(32),
                                            .size = Bytes(1e6)},
                                           t, 5);
  ASSERT_EQ(phases.size(), 3u);
  EXPECT_TRUE(phases[0].after.empty());
  EXPECT_EQ(phases[1].after, std::vector<int>{5});
  EXPECT_EQ(phases[2].after, std::vector<int>{6});
}

TEST(Collective, WrongAlgorithmsAndGroupsAreRefusedInWords) {
  const auto t = build(Family::ft2, 4);
  auto message = [&](const CollectiveSpec& c) {
    try {
      collective_transfers(c, t, 0);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message({.kind = CollectiveKind::all_to_all,
                     .algorithm = CollectiveAlgorithm::ring,
                     .gpus = first_gpus(4)}),
            "all-to-all has no ring algorithm");
  EXPECT_EQ(message({.kind = CollectiveKind::all_reduce,
                     .algorithm = CollectiveAlgorithm::hierarchical,
                     .gpus = first_gpus(12)}),
            "hierarchical all-reduce needs whole nodes: node 1 has 4 of its 8 GPUs in the group");
  EXPECT_EQ(message({.kind = CollectiveKind::all_gather, .gpus = {0, 3, 3}}),
            "GPU 3 appears twice");
  EXPECT_EQ(message({.kind = CollectiveKind::all_gather, .gpus = {0, 32}}),
            "GPU 32 is not in the topology (32 GPUs)");
  EXPECT_EQ(message({.kind = CollectiveKind::all_gather, .gpus = {0}}),
            "a collective needs at least two GPUs");
}

// The node every topology here is built of (the h800 preset): link bandwidths and latencies.
using topologies::testing::kH800;

// What NCCL adds (hardware::CommCosts, the h800 preset's): a fixed cost per call, and inside a
// node what its channels move. At the sizes below (100 MB and more) NCCL runs the Simple
// protocol (its tuner's choice, nccl_tuner_test.cpp).
const hardware::CommCosts& kNccl = kH800.comm;
const hardware::NcclProtocol& kSimple = kNccl.protocols[2];

// Inside a node a collective moves min(NVLink, channels x its rate per channel): an H800 runs 16
// channels (nccl_tuner_test.cpp); e is that over NVLink's 160 GB/s.
double efficiency(core::BytesPerSecond per_channel) {
  return std::min(1.0, 16 * per_channel.value / kH800.nvlink_bandwidth.value);
}

TEST(Collective, RingAllReduceInsideANodeMatchesTheFormula) {
  // t = c + 2 (p - 1) / p * S / (B e) + 2 (p - 1) alpha, B = NVLink's 160 GB/s, alpha = its
  // 3.33 us, c the collective call's cost, e the ring all-reduce's efficiency (its 16 channels
  // at 13.5 GB/s fill the links: 1).
  Platform platform(build(Family::node, 1), topologies::Spread::even);
  const int p = 8;
  const double s = 256e6;
  const auto phases = collective_transfers(
      {.kind = CollectiveKind::all_reduce, .gpus = first_gpus(p), .size = Bytes(s)},
      platform.topology(), 0);
  const auto t = platform.run(phases);
  EXPECT_NEAR(
      t.back().end.value,
      kSimple.collective_call.value +
          2.0 * (p - 1) / p * s /
              (kH800.nvlink_bandwidth.value * efficiency(kNccl.ring_all_reduce_per_channel)) +
          2 * (p - 1) * kH800.nvlink_latency.value,
      1e-12);
}

TEST(Collective, RingAllReduceAcrossNodesIsBoundByTheSlowestHop) {
  // 32 GPUs on 4 nodes of an FT2, 8 each: 8 channels (rings) of S / 8, channel c entering the
  // nodes on GPU c and c - 1 in turn, so each GPU's NIC carries one channel's node-crossing hop
  // (S / 8p a step at 50 GB/s) and its NVLink the other seven channels' hops (7 S / 8p at
  // 160 GB/s): NVLink bounds each step. Every step waits for the slowest hop's latency, the
  // node-crossing one through two leaves (alpha = 2.8 + 2 x 0.45 us). Across nodes no efficiency
  // was measured (1); the call's cost c is paid once.
  Platform platform(build(Family::ft2, 4), topologies::Spread::even);
  const int p = 32;
  const double s = 128e6;
  const auto phases = collective_transfers(
      {.kind = CollectiveKind::all_reduce, .gpus = first_gpus(p), .size = Bytes(s)},
      platform.topology(), 0);
  const auto t = platform.run(phases);
  const double step = std::max(7.0 / 8 * s / p / kH800.nvlink_bandwidth.value,
                               1.0 / 8 * s / p / kH800.nic_bandwidth.value);
  EXPECT_NEAR(t.back().end.value,
              kSimple.collective_call.value + 2.0 * (p - 1) * step +
                  2 * (p - 1) * topologies::testing::cross_leaf_latency(kH800),
              1e-12);
}

TEST(Collective, ARingAcrossNodesRunsAChannelPerGpuOfANode) {
  // 2 nodes of 2 GPUs of the group (GPUs 0, 1 on node 0 and 8, 9 on node 1): channel 0 visits
  // 0, 1 then 9, 8 (backwards from the second on the odd node), channel 1 visits 1, 0 then 8, 9;
  // every node-crossing hop joins GPUs of one position (1 -> 9, 8 -> 0, 0 -> 8, 9 -> 1), each
  // flow a quarter of S over 2 channels: S / 8.
  const auto t = build(Family::ft2, 4);
  const double s = 8e6;
  const auto phases = collective_transfers({.kind = CollectiveKind::all_gather,
                                            .algorithm = CollectiveAlgorithm::ring,
                                            .gpus = {0, 1, 8, 9},
                                            .size = Bytes(s)},
                                           t, 0);
  ASSERT_EQ(phases.size(), 1u);
  std::vector<std::pair<int, int>> hops;
  for (const auto& f : phases[0].flows) {
    hops.emplace_back(f.src, f.dst);
    EXPECT_DOUBLE_EQ(f.bytes.value, s / 8);
  }
  EXPECT_EQ(hops, (std::vector<std::pair<int, int>>{
                      {0, 1}, {1, 9}, {9, 8}, {8, 0}, {1, 0}, {0, 8}, {8, 9}, {9, 1}}));
  EXPECT_EQ(phases[0].repeat, 3);
}

TEST(Collective, AllToAllOnANonBlockingFatTreeMatchesTheClosedForm) {
  // p GPUs, g per node, buffer S: each GPU sends (p - g) S / p off its node through its NIC,
  // and every leaf has as many up-links as NICs, so t = alpha + (p - g) / p * S / B_nic (NVLink,
  // (g - 1) S / p at 160 GB/s, is faster); plus the point-to-point call's cost c.
  Platform platform(build(Family::ft2, 4), topologies::Spread::even);
  const int p = 32;
  const double s = 320e6;
  const auto phases = collective_transfers(all_to_all(p, s), platform.topology(), 0);
  const auto t = platform.run(phases);
  EXPECT_NEAR(t[0].end.value,
              kSimple.p2p_call.value + topologies::testing::cross_leaf_latency(kH800) +
                  (p - 8.0) / p * s / kH800.nic_bandwidth.value,
              1e-12);
}

TEST(Collective, ConcurrentCollectivesShareTheLinks) {
  // Two all-to-alls on the same GPUs, started together: the NICs carry both, so each ends at
  // c + alpha + 2 (p - g) / p * S / B_nic; a third on other GPUs (nodes 4-7) is not slowed.
  // FT2 of radix 16: a node per leaf, 8 spines, non-blocking.
  Platform platform(topologies::build_topology({.family = Family::ft2, .radix = 16},
                                               topologies::testing::h800_node(), 8),
                    topologies::Spread::even);
  const int p = 32;
  const double s = 320e6;
  const CollectiveSpec a2a = all_to_all(p, s);
  const CollectiveSpec other = all_to_all(p, s, 32);
  std::vector<Transfer> transfers = collective_transfers(a2a, platform.topology(), 0);
  transfers.push_back(collective_transfers(a2a, platform.topology(), 1)[0]);
  transfers.push_back(collective_transfers(other, platform.topology(), 2)[0]);
  const auto t = platform.run(transfers);
  const double nic = kH800.nic_bandwidth.value;
  const double alpha = kSimple.p2p_call.value + topologies::testing::cross_leaf_latency(kH800);
  EXPECT_NEAR(t[0].end.value, alpha + 2 * (p - 8.0) / p * s / nic, 1e-12);
  EXPECT_NEAR(t[1].end.value, alpha + 2 * (p - 8.0) / p * s / nic, 1e-12);
  EXPECT_NEAR(t[2].end.value, alpha + (p - 8.0) / p * s / nic, 1e-12);
}

TEST(Collective, AllToAllOnMpftMatchesTheClosedForm) {
  // MPFT, crossing at the source: NIC i of a node carries what its 8 GPUs send to index-i GPUs of
  // the other m - 1 nodes, 8 (m - 1) S / p = (p - g) / p * S: the same closed form as FT2. A
  // plane of 4 NICs fits on one radix-8 leaf, so the longest path is NVLink (3.33 us) then NIC
  // to NIC through that leaf (2.8 us).
  Platform platform(build(Family::mpft, 4), topologies::Spread::even);
  const int p = 32;
  const double s = 320e6;
  const auto phases = collective_transfers(all_to_all(p, s), platform.topology(), 0);
  const auto t = platform.run(phases);
  EXPECT_NEAR(t[0].end.value,
              kSimple.p2p_call.value + (kH800.nvlink_latency + kH800.nic_latency).value +
                  (p - 8.0) / p * s / kH800.nic_bandwidth.value,
              1e-12);
}

TEST(Collective, TreeAllReducePaysItsDepthUpAndDownOnce) {
  // 8 GPUs of one node, double binary tree, each tree carrying S / 2 up and down every edge:
  //   over 0..7: 4 -> {2, 6}, 2 -> {1, 3}, 1 -> {0}, 6 -> {5, 7}   (depth 3)
  //   over 7..0: 3 -> {5, 1}, 5 -> {6, 4}, 6 -> {7}, 1 -> {2, 0}   (depth 3)
  // GPU 1 sends S/2 to its parent and child in the first, S/2 to its parent and two children in
  // the second: 2.5 S, the most of any. Time = c + 2 x 3 alpha + 2.5 S / (B e_tree).
  Platform platform(build(Family::node, 1), topologies::Spread::even);
  const double s = 256e6;
  const auto phases = collective_transfers({.kind = CollectiveKind::all_reduce,
                                            .algorithm = CollectiveAlgorithm::tree,
                                            .gpus = first_gpus(8),
                                            .size = Bytes(s)},
                                           platform.topology(), 0);
  ASSERT_EQ(phases.size(), 1U);
  EXPECT_EQ(phases[0].latency_steps, 6);
  // What each GPU sends: per tree, S/2 to its parent (if any) and S/2 to each child.
  std::map<int, double> sent;
  for (const auto& f : phases[0].flows) {
    sent[f.src] += f.bytes.value;
  }
  double busiest = 0;
  for (const auto& [gpu, bytes] : sent) {
    busiest = std::max(busiest, bytes);
  }
  EXPECT_DOUBLE_EQ(sent[1], 2.5 * s);
  EXPECT_DOUBLE_EQ(busiest, 2.5 * s);
  const auto t = platform.run(phases);
  EXPECT_NEAR(
      t[0].end.value,
      kSimple.collective_call.value + 6 * kH800.nvlink_latency.value +
          busiest / (kH800.nvlink_bandwidth.value * efficiency(kNccl.tree_all_reduce_per_channel)),
      1e-12);
}

TEST(Collective, NvlsMovesSTimesOnePlusOneOverPEachWay) {
  // In-switch reduction: each GPU's link carries S (1 + 1/p) each way; two latencies.
  Platform platform(build(Family::node, 1), topologies::Spread::even);
  const double s = 256e6;
  const int p = 8;
  const auto phases = collective_transfers({.kind = CollectiveKind::all_reduce,
                                            .algorithm = CollectiveAlgorithm::nvls,
                                            .gpus = first_gpus(p),
                                            .size = Bytes(s)},
                                           platform.topology(), 0);
  const auto t = platform.run(phases);
  EXPECT_NEAR(t[0].end.value,
              kSimple.collective_call.value + 2 * kH800.nvlink_latency.value +
                  s * (1 + 1.0 / p) / (kH800.nvlink_bandwidth.value * kNccl.nvls_all_reduce),
              1e-12);
  // Across nodes there is no switch to reduce in.
  const auto two_nodes = build(Family::ft2, 2);
  try {
    collective_transfers({.kind = CollectiveKind::all_reduce,
                          .algorithm = CollectiveAlgorithm::nvls,
                          .gpus = first_gpus(16),
                          .size = Bytes(s)},
                         two_nodes, 0);
    FAIL() << "nvls across nodes was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "nvls runs inside one NVSwitch domain; the group spans nodes");
  }
}

TEST(Collective, NcclsCandidatesAndItsTunersChoiceInsideANode) {
  // Inside an H800 node NCCL's tuner picks NVLS for 1 GB (178.5 GB/s of bus bandwidth in its
  // model against the ring's 160, comm_cli_test.cpp); across whole nodes of an FT2 the
  // hierarchical all-reduce is a candidate, NVLS is not. All-gather has the ring alone.
  Platform node(build(Family::node, 1), topologies::Spread::even);
  const FoldedLinks links = fold_links(node.router());
  CollectiveSpec c{.kind = CollectiveKind::all_reduce, .gpus = first_gpus(8), .size = Bytes(1e9)};
  EXPECT_EQ(fastest_algorithm(c, node.router(), links), CollectiveAlgorithm::nvls);
  const auto ft2 = build(Family::ft2, 4);
  c.gpus = first_gpus(32);
  EXPECT_EQ(candidate_algorithms(c, ft2, true),
            (std::vector{CollectiveAlgorithm::ring, CollectiveAlgorithm::tree,
                         CollectiveAlgorithm::hierarchical}));
  EXPECT_EQ(candidate_algorithms(c, ft2, false),
            (std::vector{CollectiveAlgorithm::ring, CollectiveAlgorithm::tree}));
  c.kind = CollectiveKind::all_gather;
  EXPECT_EQ(candidate_algorithms(c, ft2, true), std::vector{CollectiveAlgorithm::ring});
}

TEST(Collective, BusBandwidthFactorsAreNccls) {
  EXPECT_DOUBLE_EQ(bus_factor(CollectiveKind::all_reduce, 8), 2.0 * 7 / 8);
  EXPECT_DOUBLE_EQ(bus_factor(CollectiveKind::all_gather, 8), 7.0 / 8);
  EXPECT_DOUBLE_EQ(bus_factor(CollectiveKind::all_to_all, 8), 7.0 / 8);
  EXPECT_DOUBLE_EQ(bus_factor(CollectiveKind::send, 2), 1.0);
}

}  // namespace
}  // namespace codesim::engine
