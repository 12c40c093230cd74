// Collectives: their bytes (what each rank receives) and their times on the platform against the
// textbook formulas.
#include "sim/engine/collective.hpp"

#include <gtest/gtest.h>

#include <map>

#include "sim/engine/platform.hpp"
#include "tests/topologies/support.hpp"
#include "topologies/build.hpp"

namespace codesim::engine {
namespace {

using core::Bytes;
using topologies::Family;

topologies::Topology build(Family f, int nodes) {
  return topologies::build_topology({.family = f, .radix = 8, .planes = f == Family::mpft ? 8 : 1},
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

TEST(Collective, RingAllReduceInsideANodeMatchesTheFormula) {
  // t = 2 (p - 1) / p * S / B + 2 (p - 1) alpha, B = NVLink's 160 GB/s, alpha = its 3.33 us.
  Platform platform(build(Family::node, 1), topologies::Spread::even);
  const int p = 8;
  const double s = 256e6;
  const auto phases = collective_transfers(
      {.kind = CollectiveKind::all_reduce, .gpus = first_gpus(p), .size = Bytes(s)},
      platform.topology(), 0);
  const auto t = platform.run(phases);
  EXPECT_NEAR(t.back().end.value,
              2.0 * (p - 1) / p * s / kH800.nvlink_bandwidth.value +
                  2 * (p - 1) * kH800.nvlink_latency.value,
              1e-12);
}

TEST(Collective, RingAllReduceAcrossNodesIsBoundByTheSlowestHop) {
  // 32 GPUs on 4 nodes of an FT2: the ring's node-crossing hops go over 50 GB/s NICs, through two
  // leaves (alpha = 2.8 + 2 x 0.45 us); every step waits for the slowest of its hops.
  Platform platform(build(Family::ft2, 4), topologies::Spread::even);
  const int p = 32;
  const double s = 128e6;
  const auto phases = collective_transfers(
      {.kind = CollectiveKind::all_reduce, .gpus = first_gpus(p), .size = Bytes(s)},
      platform.topology(), 0);
  const auto t = platform.run(phases);
  EXPECT_NEAR(t.back().end.value,
              2.0 * (p - 1) / p * s / kH800.nic_bandwidth.value +
                  2 * (p - 1) * topologies::testing::cross_leaf_latency(kH800),
              1e-12);
}

TEST(Collective, AllToAllOnANonBlockingFatTreeMatchesTheClosedForm) {
  // p GPUs, g per node, buffer S: each GPU sends (p - g) S / p off its node through its NIC,
  // and every leaf has as many up-links as NICs, so t = alpha + (p - g) / p * S / B_nic (NVLink,
  // (g - 1) S / p at 160 GB/s, is faster).
  Platform platform(build(Family::ft2, 4), topologies::Spread::even);
  const int p = 32;
  const double s = 320e6;
  const auto phases = collective_transfers(all_to_all(p, s), platform.topology(), 0);
  const auto t = platform.run(phases);
  EXPECT_NEAR(t[0].end.value,
              topologies::testing::cross_leaf_latency(kH800) +
                  (p - 8.0) / p * s / kH800.nic_bandwidth.value,
              1e-12);
}

TEST(Collective, ConcurrentCollectivesShareTheLinks) {
  // Two all-to-alls on the same GPUs, started together: the NICs carry both, so each ends at
  // alpha + 2 (p - g) / p * S / B_nic; a third on other GPUs (nodes 4-7) is not slowed.
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
  EXPECT_NEAR(t[0].end.value,
              topologies::testing::cross_leaf_latency(kH800) + 2 * (p - 8.0) / p * s / nic, 1e-12);
  EXPECT_NEAR(t[1].end.value,
              topologies::testing::cross_leaf_latency(kH800) + 2 * (p - 8.0) / p * s / nic, 1e-12);
  EXPECT_NEAR(t[2].end.value,
              topologies::testing::cross_leaf_latency(kH800) + (p - 8.0) / p * s / nic, 1e-12);
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
              (kH800.nvlink_latency + kH800.nic_latency).value +
                  (p - 8.0) / p * s / kH800.nic_bandwidth.value,
              1e-12);
}

TEST(Collective, BusBandwidthFactorsAreNccls) {
  EXPECT_DOUBLE_EQ(bus_factor(CollectiveKind::all_reduce, 8), 2.0 * 7 / 8);
  EXPECT_DOUBLE_EQ(bus_factor(CollectiveKind::all_gather, 8), 7.0 / 8);
  EXPECT_DOUBLE_EQ(bus_factor(CollectiveKind::all_to_all, 8), 7.0 / 8);
  EXPECT_DOUBLE_EQ(bus_factor(CollectiveKind::send, 2), 1.0);
}

}  // namespace
}  // namespace codesim::engine
