// DeepEP dispatch/combine flows: payload sizes, node-limited routing in the IB bytes, two-hop vs
// direct, conservation, and the low-latency mode's pure RDMA.
#include "sim/comm/expert_parallel.hpp"

#include <gtest/gtest.h>

#include "models/kernels/batch_routing.hpp"
#include "tests/topologies/support.hpp"
#include "topologies/build.hpp"

namespace codesim::engine {
namespace {

using namespace codesim::comm;  // what these tests exercise beside the engine

using topologies::Family;

topologies::Topology mpft(int nodes) {
  return topologies::build_topology({.family = Family::mpft, .radix = 16, .planes = 8},
                                    topologies::testing::h800_node(), nodes);
}

kernels::RoutingPlan plan(int node_limit, int tokens = 4096) {
  kernels::GateSpec gate;  // DeepSeek-V3: 256 experts, 8 groups, top-8
  gate.topk_groups = node_limit;
  return kernels::route_batch({.gate = gate, .hidden = 256, .tokens = tokens, .ep = 64, .seed = 3})
      .plan;
}

using topologies::first_gpus;

double total_rdma(const topologies::TrafficRouter& r, const std::vector<topologies::Flow>& flows) {
  double sum = 0;
  for (const auto& b : sent_per_gpu(r, r.loads(flows), first_gpus(64))) {
    sum += b.rdma.value;
  }
  return sum;
}

TEST(ExpertParallel, PayloadsAreFp8WithScalesAndBf16OrLogFmt) {
  // FP8: 7168 + 7168 / 128 x 4 B of scales + 8 x (8 B index + 4 B weight) = 7488 B.
  const EpPayload fp8 = ep_payload({.hidden = 7168, .topk = 8});
  EXPECT_DOUBLE_EQ(fp8.dispatch.value, 7168 + 56 * 4 + 8 * 12);
  EXPECT_DOUBLE_EQ(fp8.combine.value, 2 * 7168);
  EXPECT_DOUBLE_EQ(ep_payload({.hidden = 7168, .topk = 8, .dispatch = kBf16Wire}).dispatch.value,
                   2 * 7168 + 96);
  // LogFMT-10: 10 bits per channel + two FP32 per 128 channels.
  EXPECT_DOUBLE_EQ(
      ep_payload({.hidden = 7168, .topk = 8, .combine = logfmt_wire(10)}).combine.value,
      7168 * 10 / 8.0 + 56 * 8);
}

TEST(ExpertParallel, NodeLimitShowsInTheIbBytes) {
  // Two-hop dispatch sends a token once to each chosen node but its own, so the IB bytes are
  // payload x sum over tokens of (nodes reached - own node reached), and each term <= M.
  const auto t = mpft(8);
  const topologies::TrafficRouter r(t, topologies::Spread::even);
  const EpPayload payload = ep_payload({.hidden = 7168, .topk = 8});
  double ib_m4 = 0;
  for (int m : {4, 8}) {
    const auto p = plan(m);
    double transfers = 0;
    for (int tok = 0; tok < p.tokens; ++tok) {
      int remote = 0;
      for (int n : p.nodes[static_cast<std::size_t>(tok)]) {
        remote += n != p.source[static_cast<std::size_t>(tok)] / 8 ? 1 : 0;
      }
      EXPECT_LE(remote, m);
      transfers += remote;
    }
    const double ib =
        total_rdma(r, ep_flows(p, EpMode::deepep_normal, payload, first_gpus(64)).dispatch);
    EXPECT_NEAR(ib, transfers * payload.dispatch.value, 1e-3);
    EXPECT_LE(ib / p.tokens, m * payload.dispatch.value);
    if (m == 4) {
      ib_m4 = ib;
    } else {
      EXPECT_GT(ib, ib_m4);
    }
  }
}

TEST(ExpertParallel, TwoHopSendsFewerIbBytesThanDirect) {
  const auto t = mpft(8);
  const topologies::TrafficRouter r(t, topologies::Spread::even);
  const auto p = plan(4);
  const EpPayload payload = ep_payload({.hidden = 7168, .topk = 8});
  const double two_hop =
      total_rdma(r, ep_flows(p, EpMode::deepep_normal, payload, first_gpus(64)).dispatch);
  const double direct =
      total_rdma(r, ep_flows(p, EpMode::direct, payload, first_gpus(64)).dispatch);
  EXPECT_LT(two_hop, direct);
  // Direct: one IB transfer per (token, remote GPU) pair.
  double remote_gpus = 0;
  for (int tok = 0; tok < p.tokens; ++tok) {
    for (int d : p.gpus[static_cast<std::size_t>(tok)]) {
      remote_gpus += d / 8 != p.source[static_cast<std::size_t>(tok)] / 8 ? 1 : 0;
    }
  }
  EXPECT_NEAR(direct, remote_gpus * payload.dispatch.value, 1e-3);
}

TEST(ExpertParallel, CombineReturnsWhatDispatchSent) {
  // Every dispatch flow a -> b of k tokens has a combine flow b -> a of k tokens.
  const auto p = plan(4);
  const EpPayload payload = ep_payload({.hidden = 7168, .topk = 8});
  for (const EpMode mode : {EpMode::deepep_normal, EpMode::direct, EpMode::deepep_low_latency}) {
    const EpFlows f = ep_flows(p, mode, payload, first_gpus(64));
    ASSERT_EQ(f.dispatch.size(), f.combine.size());
    for (std::size_t i = 0; i < f.dispatch.size(); ++i) {
      EXPECT_EQ(f.dispatch[i].src, f.combine[i].dst);
      EXPECT_EQ(f.dispatch[i].dst, f.combine[i].src);
      EXPECT_DOUBLE_EQ(f.dispatch[i].bytes / payload.dispatch,
                       f.combine[i].bytes / payload.combine);
    }
  }
}

TEST(ExpertParallel, LowLatencySendsOneRdmaMessagePerExpert) {
  // Pure RDMA on a single-plane fat tree: no NVLink bytes at all, and the RDMA bytes are the
  // token-expert pairs whose expert is on another GPU, times the payload.
  const auto t = topologies::build_topology({.family = Family::ft2, .radix = 16},
                                            topologies::testing::h800_node(), 8);
  const topologies::TrafficRouter r(t, topologies::Spread::even);
  const auto p = plan(4, 128);
  const EpPayload payload = ep_payload({.hidden = 7168, .topk = 8});
  const auto flows = ep_flows(p, EpMode::deepep_low_latency, payload, first_gpus(64)).dispatch;
  double rdma = 0;
  for (const auto& b : sent_per_gpu(r, r.loads(flows), first_gpus(64))) {
    EXPECT_EQ(b.nvlink.value, 0.0);
    rdma += b.rdma.value;
  }
  EXPECT_NEAR(rdma, p.per_expert.sum() * payload.dispatch.value, 1e-3);
  EXPECT_LE(p.per_expert.sum(), p.tokens * p.topk);
}

TEST(ExpertParallel, InternodeNormalKernelsForwardWithHalfTheirSms) {
  // EP64 over 8 nodes: the normal kernels' NVLink sends are capped at 12 of 24 SMs x the
  // forwarding rate per SM (hardware::CommCosts, fitted to DeepEP's EP16 row); inside one node
  // (the intranode kernel) and for the low-latency kernels, no forwarding cap.
  const topologies::NodeSpec node = topologies::testing::h800_node();
  const EpPayload payload = ep_payload({.hidden = 7168, .topk = 8});
  Transfer across{.flows =
                      ep_flows(plan(4), EpMode::deepep_normal, payload, first_gpus(64)).dispatch};
  add_ep_costs(across, EpMode::deepep_normal, node, 24, payload.dispatch);
  ASSERT_TRUE(across.forward_cap.has_value());
  EXPECT_DOUBLE_EQ(across.forward_cap->value, 12 * node.comm.ep_forward_rate_per_sm.value);
  Transfer inside{.flows = {topologies::Flow{.src = 0, .dst = 3, .bytes = core::Bytes(1e6)}}};
  add_ep_costs(inside, EpMode::deepep_normal, node, 24, payload.dispatch);
  EXPECT_FALSE(inside.forward_cap.has_value());
  Transfer low_latency{.flows = across.flows};
  add_ep_costs(low_latency, EpMode::deepep_low_latency, node, 24, payload.dispatch);
  EXPECT_FALSE(low_latency.forward_cap.has_value());
}

TEST(ExpertParallel, AStacksRatesSlowInternodeNormalKernelsByDirection) {
  // Rates r: the SM copies run at r x their caps (the links keep their capacity), so a copy-bound
  // transfer's time alone is the benchmark model's / r; a forward dispatch (laid out anew) first
  // pays the layout. Inside a node, and in the low-latency modes, nothing changes.
  const topologies::NodeSpec node = topologies::testing::h800_node();
  const EpPayload payload = ep_payload({.hidden = 7168, .topk = 8});
  const EpKernelRates rates{.dispatch = 0.5, .combine = 0.8, .layout = core::Seconds(2e-3)};
  const auto flows = ep_flows(plan(4), EpMode::deepep_normal, payload, first_gpus(64));
  Transfer dispatch{.flows = flows.dispatch, .sender_cap = core::BytesPerSecond(160e9)};
  add_ep_costs(dispatch, EpMode::deepep_normal, node, 20, payload.dispatch);
  apply_ep_rates(dispatch, EpMode::deepep_normal, rates, true, true);
  EXPECT_DOUBLE_EQ(dispatch.efficiency, 1.0);
  EXPECT_DOUBLE_EQ(dispatch.sender_cap->value, 80e9);
  EXPECT_DOUBLE_EQ(dispatch.forward_cap->value, 0.5 * 10 * node.comm.ep_forward_rate_per_sm.value);
  ASSERT_EQ(dispatch.calls.size(), 1U);
  EXPECT_DOUBLE_EQ(dispatch.calls[0].fixed_cost.value, node.comm.ep_call.value + 2e-3);

  Transfer back{.flows = flows.combine};
  add_ep_costs(back, EpMode::deepep_normal, node, 20, payload.combine);
  apply_ep_rates(back, EpMode::deepep_normal, rates, false, false);
  EXPECT_DOUBLE_EQ(back.forward_cap->value, 0.8 * 10 * node.comm.ep_forward_rate_per_sm.value);
  EXPECT_DOUBLE_EQ(back.calls[0].fixed_cost.value, node.comm.ep_call.value);

  Transfer inside{.flows = {topologies::Flow{.src = 0, .dst = 3, .bytes = core::Bytes(1e6)}}};
  add_ep_costs(inside, EpMode::deepep_normal, node, 20, payload.dispatch);
  apply_ep_rates(inside, EpMode::deepep_normal, rates, true, true);
  EXPECT_DOUBLE_EQ(inside.efficiency, 1.0);
  EXPECT_DOUBLE_EQ(inside.calls[0].fixed_cost.value, node.comm.ep_call.value);

  Transfer low_latency{.flows = flows.dispatch};
  add_ep_costs(low_latency, EpMode::deepep_low_latency, node, 20, payload.dispatch);
  const double before = low_latency.efficiency;
  apply_ep_rates(low_latency, EpMode::deepep_low_latency, rates, true, true);
  EXPECT_DOUBLE_EQ(low_latency.efficiency, before);
}

TEST(ExpertParallel, AKernelRateOutsideZeroToOneIsRefused) {
  const topologies::NodeSpec node = topologies::testing::h800_node();
  const EpPayload payload = ep_payload({.hidden = 7168, .topk = 8});
  Transfer t{.flows = ep_flows(plan(4), EpMode::deepep_normal, payload, first_gpus(64)).dispatch};
  add_ep_costs(t, EpMode::deepep_normal, node, 20, payload.dispatch);
  try {
    apply_ep_rates(t, EpMode::deepep_normal, {.dispatch = 1.5}, true, false);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "a DeepEP kernel rate must be in (0, 1], got 1.5000");
  }
}
TEST(ExpertParallel, PlanAndGpuListMustAgree) {
  try {
    ep_flows(plan(4, 128), EpMode::deepep_normal, {}, first_gpus(8));
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "the routing plan has 64 EP ranks but 8 GPUs were given");
  }
}

}  // namespace
}  // namespace codesim::engine
