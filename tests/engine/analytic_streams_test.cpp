// The fast tier's runner: stream order and dependencies as in the full tier, each transfer timed
// alone (alpha + S / B per repeat, or the senders' copy time at their cap), and what it leaves
// out: two transfers that share a link at the same time do not slow each other.
#include "sim/fast/analytic_streams.hpp"

#include <gtest/gtest.h>

#include "sim/core/error.hpp"
#include "sim/engine/platform.hpp"
#include "tests/topologies/support.hpp"
#include "topologies/build.hpp"

namespace codesim::engine {
namespace {

using namespace codesim::comm;  // what these tests exercise beside the engine
using namespace codesim::fast;  // what these tests exercise beside the engine

using core::Bytes;
using core::Seconds;
using topologies::Flow;
using topologies::testing::kH800;

topologies::Topology four_nodes() {
  return topologies::build_topology({.family = topologies::Family::ft2, .radix = 8},
                                    topologies::testing::h800_node(), 4);
}

// GPU 0 to GPU 31 (another leaf): alpha = 2.8 us + 2 x 0.45 us, bottleneck the 50 GB/s NIC.
Transfer across(double bytes) {
  return {.name = "across", .flows = {Flow{.src = 0, .dst = 31, .bytes = Bytes(bytes)}}};
}

TEST(AnalyticStreams, TasksFollowTheirStreamAndDependencies) {
  // Stream 0: 1 ms of compute, then S = 1e8 B across: ends at 1 ms + alpha + S / B. Stream 1: a
  // 0.5 ms task waiting for that transfer starts when it ends.
  const auto t = four_nodes();
  const topologies::TrafficRouter router(t, topologies::Spread::even);
  StreamProgram p;
  p.transfers = {across(1e8)};
  p.tasks = {
      {.duration = Seconds(1e-3)}, {.transfer = 0}, {.duration = Seconds(0.5e-3), .deps = {1}}};
  p.streams = {{0, 1}, {2}};
  const auto timing = run_streams_analytic(p, router);
  const double sent =
      1e-3 + topologies::testing::cross_leaf_latency(kH800) + 1e8 / kH800.nic_bandwidth.value;
  EXPECT_NEAR(timing[1].start.value, 1e-3, 1e-15);
  EXPECT_NEAR(timing[1].end.value, sent, 1e-12);
  EXPECT_NEAR(timing[2].start.value, sent, 1e-12);
  EXPECT_NEAR(timing[2].end.value, sent + 0.5e-3, 1e-12);
}

TEST(AnalyticStreams, RepeatsAndSenderCaps) {
  // A ring step repeated 3 times: 3 x (alpha + S / B). With a 10 GB/s sender cap (below the
  // NIC's 50) the copy bounds it: 3 x (alpha + S / 10 GB/s).
  const auto t = four_nodes();
  const topologies::TrafficRouter router(t, topologies::Spread::even);
  StreamProgram p;
  p.transfers = {across(1e8), across(1e8)};
  p.transfers[0].repeat = 3;
  p.transfers[1].repeat = 3;
  p.transfers[1].sender_cap = core::BytesPerSecond(10e9);
  p.tasks = {{.transfer = 0}, {.transfer = 1}};
  p.streams = {{0}, {1}};
  const auto timing = run_streams_analytic(p, router);
  const double alpha = topologies::testing::cross_leaf_latency(kH800);
  EXPECT_NEAR(timing[0].end.value, 3 * (alpha + 1e8 / kH800.nic_bandwidth.value), 1e-12);
  EXPECT_NEAR(timing[1].end.value, 3 * (alpha + 1e8 / 10e9), 1e-12);
}

TEST(AnalyticStreams, ConcurrentTransfersDoNotShareLinksUnlikeTheFullTier) {
  // Two streams send S across at once over GPU 0's NIC: each alone takes alpha + S / B; the full
  // tier shares the NIC, so the pair ends at alpha + 2 S / B.
  const auto t = four_nodes();
  StreamProgram p;
  p.transfers = {across(1e8)};
  p.tasks = {{.transfer = 0}, {.transfer = 0}};
  p.streams = {{0}, {1}};
  const double alpha = topologies::testing::cross_leaf_latency(kH800);
  const double b = kH800.nic_bandwidth.value;
  const auto fast = run_streams_analytic(p, topologies::TrafficRouter(t, topologies::Spread::even));
  EXPECT_NEAR(fast[0].end.value, alpha + 1e8 / b, 1e-12);
  EXPECT_NEAR(fast[1].end.value, alpha + 1e8 / b, 1e-12);
  Platform full(t, topologies::Spread::even);
  const auto shared = full.run_streams(p);
  EXPECT_NEAR(shared[1].end.value, alpha + 2e8 / b, 1e-9);
}

TEST(AnalyticStreams, RefusesACycleAsTheFullTierDoes) {
  const auto t = four_nodes();
  StreamProgram p;
  p.tasks = {{.deps = {1}}, {.deps = {0}}};
  p.streams = {{0}, {1}};
  try {
    run_streams_analytic(p, topologies::TrafficRouter(t, topologies::Spread::even));
    FAIL() << "a cycle ran";
  } catch (const core::SimulationError& e) {
    EXPECT_STREQ(e.what(), "stream program: its dependencies and stream orders form a cycle");
  }
}

}  // namespace
}  // namespace codesim::engine
