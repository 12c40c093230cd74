// The SimGrid platform: one transfer = alpha + S/B, fair sharing whatever the route latency,
// dependencies and repeats, the SM copy cap. Each test runs in its own process (one engine each).
#include "sim/engine/platform.hpp"

#include <gtest/gtest.h>

#include "sim/comm/link_folding.hpp"
#include "sim/core/error.hpp"
#include "tests/topologies/support.hpp"
#include "topologies/build.hpp"

namespace codesim::engine {
namespace {

using namespace codesim::comm;  // what these tests exercise beside the engine

using core::Bytes;
using topologies::Family;
using topologies::Flow;
using topologies::Via;

// The node of every platform here (the h800 preset): NVLink 160 GB/s and 3.33 us, NIC 50 GB/s
// and 2.8 us, switch links 0.45 us.
using topologies::testing::kH800;

topologies::Topology ft2(int nodes) {
  return topologies::build_topology({.family = Family::ft2, .radix = 8},
                                    topologies::testing::h800_node(), nodes);
}

TEST(Platform, OneTransferTakesLatencyPlusSizeOverBottleneck) {
  // GPU 0 to GPU 31 across leaves: alpha = 2.8 us (NIC to NIC) + 2 x 0.45 us (switch links);
  // the bottleneck is the 50 GB/s NIC link (PCIe 64 GB/s, the spines share the load four ways).
  Platform p(ft2(4), topologies::Spread::even);
  const double s = 1e9;
  const auto t =
      p.run({Transfer{.name = "one", .flows = {Flow{.src = 0, .dst = 31, .bytes = Bytes(s)}}}});
  const double alpha = topologies::testing::cross_leaf_latency(kH800);
  EXPECT_NEAR(t[0].end.value, alpha + s / kH800.nic_bandwidth.value, 1e-12);
  EXPECT_NEAR(t[0].latency.value, alpha, 1e-15);
  EXPECT_NEAR(t[0].alone_bandwidth_time.value, s / kH800.nic_bandwidth.value, 1e-15);
}

// The sharing tests' figures: S bytes, the NIC links' bandwidth B, and the latencies NIC to NIC
// on one leaf (a1) and across leaves (a2).
struct SharingFigures {
  double s;
  double b;
  double a1;
  double a2;
};
const SharingFigures kSharing{.s = 1e8,
                              .b = kH800.nic_bandwidth.value,
                              .a1 = kH800.nic_latency.value,
                              .a2 = topologies::testing::cross_leaf_latency(kH800)};

TEST(Platform, TwoFlowsOnOneLinkShareItEquallyWhateverTheirRouteLatency) {
  // GPU 0 sends S over RDMA to GPU 1, through its leaf (alpha1 = 2.8 us), and S to GPU 31 on
  // another leaf (alpha2 = 2.8 us + 2 x 0.45 us).
  // Both load GPU 0's PCIe and NIC links (50 GB/s). Flow 1 runs alone for alpha2 - alpha1 at B,
  // then both get B/2 until flow 1 ends; flow 2 then runs alone at B:
  //   t1 = alpha2 + (S - B (alpha2 - alpha1)) / (B/2)
  //   flow 2 has sent (t1 - alpha2) B/2 by t1, so t2 = t1 + (S - (t1 - alpha2) B/2) / B.
  // Under CM02 the share would follow 1/latency; here it must not.
  Platform p(ft2(4), topologies::Spread::even);
  const auto [s, b, a1, a2] = kSharing;
  const auto t = p.run({
      Transfer{.name = "near",
               .flows = {Flow{.src = 0, .dst = 1, .bytes = Bytes(s), .via = Via::network}}},
      Transfer{.name = "far", .flows = {Flow{.src = 0, .dst = 31, .bytes = Bytes(s)}}},
  });
  const double t1 = a2 + (s - b * (a2 - a1)) / (b / 2);
  const double t2 = t1 + (s - (t1 - a2) * b / 2) / b;
  EXPECT_NEAR(t[0].end.value, t1, 1e-9);
  EXPECT_NEAR(t[1].end.value, t2, 1e-9);
}

TEST(Platform, ALinkOnlyOneTransferUsesStillBindsItWhileItSharesAnother) {
  // A sends S from GPU 0 to GPU 1 through their leaf and S from GPU 0 to GPU 31 on another leaf:
  // 2S on GPU 0's NIC link, which only A uses (rate rA <= B / 2S, B = 50 GB/s). B (another
  // transfer) sends S/2 from GPU 30 to GPU 31 through their leaf. Both load the leaf -> NIC 31
  // link (50 GB/s) and NIC 31's PCIe (64 GB/s), S and S/2, in the same proportions.
  // B's bytes begin at a1 (2.8 us) alone: rB = B / (S/2). At a2 (3.7 us) A's begin; max-min
  // raises both rates together until A's own link holds it at B / 2S (the shared link then
  // carries 3/4 of B), and B takes the rest of the shared link: S rA + S/2 rB = B, rB = B / S.
  //   A ends at a2 + 2S / B;  B ends at a2 + (1 - (a2 - a1) 2B / S) S / B.
  // Dropping A's unshared links from the solver would let A take half of the shared link.
  Platform p(ft2(4), topologies::Spread::even);
  const auto [s, b, a1, a2] = kSharing;
  const auto t = p.run({
      Transfer{.name = "A",
               .flows = {Flow{.src = 0, .dst = 1, .bytes = Bytes(s), .via = Via::network},
                         Flow{.src = 0, .dst = 31, .bytes = Bytes(s)}}},
      Transfer{.name = "B",
               .flows = {Flow{.src = 30, .dst = 31, .bytes = Bytes(s / 2), .via = Via::network}}},
  });
  EXPECT_NEAR(t[0].end.value, a2 + 2 * s / b, 1e-12);
  EXPECT_NEAR(t[1].end.value, a2 + (1 - (a2 - a1) * 2 * b / s) * s / b, 1e-12);
}

TEST(Platform, DependentTransfersRunOneAfterTheOther) {
  Platform p(ft2(1), topologies::Spread::even);
  const double s = 16e9;
  const Flow f{.src = 0, .dst = 1, .bytes = Bytes(s)};
  const auto t = p.run({
      Transfer{.name = "first", .flows = {f}},
      Transfer{.name = "second", .flows = {f}, .repeat = 3, .after = {0}},
  });
  const double one = kH800.nvlink_latency.value + s / kH800.nvlink_bandwidth.value;
  EXPECT_NEAR(t[0].end.value, one, 1e-12);
  EXPECT_NEAR(t[1].start.value, one, 1e-12);
  EXPECT_NEAR(t[1].end.value, 4 * one, 1e-12);
}

TEST(Platform, NotBeforeDelaysTheStart) {
  Platform p(ft2(1), topologies::Spread::even);
  const auto t = p.run({Transfer{.name = "late",
                                 .flows = {Flow{.src = 0, .dst = 1, .bytes = Bytes(160e6)}},
                                 .not_before = core::Seconds(1e-3)}});
  EXPECT_NEAR(t[0].start.value, 1e-3, 1e-15);
  // 160 MB over NVLink's 160 GB/s: 1 ms after its latency.
  EXPECT_NEAR(t[0].end.value,
              1e-3 + kH800.nvlink_latency.value + 160e6 / kH800.nvlink_bandwidth.value, 1e-12);
}

TEST(Platform, SenderCapBoundsAGpusSendingRate) {
  // 20 SMs at 5 GB/s each: 100 GB/s < 160 GB/s NVLink, so S / 100 GB/s.
  Platform p(ft2(1), topologies::Spread::even);
  const double s = 1e9;
  const auto t = p.run({Transfer{.name = "capped",
                                 .flows = {Flow{.src = 0, .dst = 1, .bytes = Bytes(s)}},
                                 .sender_cap = core::BytesPerSecond(100e9)}});
  EXPECT_NEAR(t[0].end.value, kH800.nvlink_latency.value + s / 100e9, 1e-12);
  EXPECT_EQ(t[0].bottleneck, -1);
}

TEST(Platform, ForwardCapBoundsAGpusNvlinkSendsOnly) {
  // A forwarding cap of 50 GB/s on GPU 0's NVLink sends (S to GPU 1, same node): S / 50 GB/s.
  // Its RDMA send to another node's GPU (S / 2 over the 50 GB/s NIC path) runs beside it on
  // other SMs: the transfer takes the longer, the forwarding. Without the cap NVLink (160 GB/s)
  // and the NIC path bound it: faster.
  const double s = 1e9;
  const std::vector<Flow> flows{Flow{.src = 0, .dst = 1, .bytes = Bytes(s)},
                                Flow{.src = 0, .dst = 8, .bytes = Bytes(s / 2)}};
  const topologies::Topology t = ft2(2);
  Platform p(t, topologies::Spread::even);
  const auto capped = p.run(
      {Transfer{.name = "forwarded", .flows = flows, .forward_cap = core::BytesPerSecond(50e9)}});
  EXPECT_NEAR(capped[0].alone_bandwidth_time.value, s / 50e9, 1e-12);
  EXPECT_EQ(capped[0].bottleneck, -1);
  const topologies::TrafficRouter router(t, topologies::Spread::even);
  const comm::FoldedLoads free =
      comm::fold_loads(Transfer{.name = "free", .flows = flows}, router, comm::fold_links(router));
  EXPECT_LT(free.alone, s / 50e9);
  EXPECT_GT(free.alone, 0.0);
}

TEST(Platform, CyclesAreRefusedBeforeAnythingRuns) {
  Platform p(ft2(1), topologies::Spread::even);
  const Flow f{.src = 0, .dst = 1, .bytes = Bytes(1.0)};
  try {
    p.run({Transfer{.name = "a", .flows = {f}, .after = {1}},
           Transfer{.name = "b", .flows = {f}, .after = {0}}});
    FAIL();
  } catch (const core::SimulationError& e) {
    EXPECT_STREQ(e.what(), "the transfers' dependencies form a cycle");
  }
}

TEST(Platform, ASecondEngineInOneProcessIsRefused) {
  Platform p(ft2(1), topologies::Spread::even);
  try {
    Platform q(ft2(1), topologies::Spread::even);
    FAIL();
  } catch (const core::SimulationError& e) {
    EXPECT_STREQ(e.what(), "SimGrid allows one engine per process: a platform exists already");
  }
}

}  // namespace
}  // namespace codesim::engine
