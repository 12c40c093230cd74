// Placement, routing plans and bias balancing.
#include <gtest/gtest.h>

#include <numeric>

#include "models/kernels/balancing.hpp"
#include "models/kernels/routing_plan.hpp"
#include "models/llm/catalog.hpp"

namespace codesim::kernels {
namespace {

GateSpec v3() {
  return gate_spec(*llm::find_preset("deepseek-v3"));
}

struct Fixture {
  SyntheticGate g = make_synthetic_gate(256, 256, {.zipf = 1.1}, 5);
  RowMatrixXf x = sample_tokens(g, 2048, 6);
};

TEST(Placement, ContiguousGroupsSitOnOneNode) {
  // EP64 over 8 nodes: 4 experts per GPU, a group of 32 experts per node.
  const Placement p = contiguous_placement(256, 64, 8);
  for (int e = 0; e < 256; ++e) {
    ASSERT_EQ(p.replicas[e].size(), 1u);
    EXPECT_EQ(p.replicas[e][0], e / 4);
    EXPECT_EQ(p.node_of(p.replicas[e][0]), e / 32);
  }
  EXPECT_THROW(contiguous_placement(256, 48, 8), std::invalid_argument);
}

TEST(RoutingPlan, NodeLimitBoundsNodesPerToken) {
  Fixture f;
  for (int m : {1, 2, 4}) {
    GateSpec spec = v3();
    spec.topk_groups = m;
    const auto plan = make_routing_plan(gate(f.x, f.g.weight, Eigen::VectorXf::Zero(256), spec),
                                        contiguous_placement(256, 64, 8));
    EXPECT_LE(plan.max_nodes_per_token(), m);
  }
  GateSpec unlimited = v3();
  unlimited.topk_groups = 8;
  const auto plan = make_routing_plan(gate(f.x, f.g.weight, Eigen::VectorXf::Zero(256), unlimited),
                                      contiguous_placement(256, 64, 8));
  EXPECT_GT(plan.max_nodes_per_token(), 4);
}

TEST(RoutingPlan, CountsAreConsistent) {
  // Two-hop: each (token, other node) is one IB transfer; direct: each (token, other GPU) one send.
  Fixture f;
  const auto out = gate(f.x, f.g.weight, Eigen::VectorXf::Zero(256), v3());
  const auto plan = make_routing_plan(out, contiguous_placement(256, 64, 8));
  long long ib = 0;
  long long direct = 0;
  for (int t = 0; t < plan.tokens; ++t) {
    const int s = plan.source[t];
    for (int n : plan.nodes[t]) {
      ib += n != s / 8 ? 1 : 0;
    }
    for (int d : plan.gpus[t]) {
      direct += d != s ? 1 : 0;
    }
  }
  EXPECT_EQ(plan.rdma.sum(), ib);
  EXPECT_EQ(plan.direct.sum(), direct);
  // IB only between GPUs of the same local index on different nodes.
  for (int s = 0; s < 64; ++s) {
    for (int d = 0; d < 64; ++d) {
      if (plan.rdma(s, d) > 0) {
        EXPECT_EQ(s % 8, d % 8);
        EXPECT_NE(s / 8, d / 8);
      }
      if (plan.nvlink(s, d) > 0) {
        EXPECT_EQ(s / 8, d / 8);
      }
    }
  }
  EXPECT_DOUBLE_EQ(std::accumulate(plan.expert_load.begin(), plan.expert_load.end(), 0.0),
                   2048.0 * 8);
  EXPECT_NEAR(plan.mean_experts_per_node() * plan.mean_nodes_per_token(), 8.0, 1e-9);
}

TEST(Placement, EplbEvensOutGpuLoad) {
  Fixture f;
  const auto out = gate(f.x, f.g.weight, Eigen::VectorXf::Zero(256), v3());
  const auto load = expert_load(out, 256);
  const auto base = make_routing_plan(out, contiguous_placement(256, 64, 8));
  for (auto policy : {EplbPolicy::global, EplbPolicy::hierarchical}) {
    const Placement p = eplb_placement(load, 64, 8, 64, policy, 8);
    std::size_t copies = 0;
    for (const auto& r : p.replicas) {
      EXPECT_GE(r.size(), 1u);
      copies += r.size();
    }
    EXPECT_EQ(copies, 256u + 64u);
    const auto plan = make_routing_plan(out, p);
    // Global packing evens GPUs out; hierarchical keeps each group on its node (one group per
    // node here), so only the imbalance inside nodes can go.
    const double limit = policy == EplbPolicy::global ? 0.2 : 1.0;
    EXPECT_LT(coefficient_of_variation(plan.gpu_load),
              coefficient_of_variation(base.gpu_load) * limit);
  }
}

TEST(Balancing, BiasDrivesTheLoadImbalanceDown) {
  const auto g = make_synthetic_gate(256, 256, {.zipf = 1.1}, 7);
  const auto r =
      balance_bias(g, v3(), {.steps = 150, .tokens_per_step = 1024, .gamma = 0.001f, .seed = 8});
  EXPECT_LT(r.load_cv.back(), r.load_cv.front() / 3);
}

TEST(Balancing, SequenceLossIsAlphaWhenPerfectlyBalanced) {
  // f_i = 1 and P_i = 1/N_r for every expert when loads and affinities are uniform: L = alpha.
  GateOutput out;
  out.tokens = 4;
  out.topk = 2;
  out.experts = {0, 1, 2, 3, 0, 1, 2, 3};
  out.weights.assign(8, 0.5f);
  out.scores = RowMatrixXf::Constant(4, 4, 0.5f);
  EXPECT_NEAR(sequence_balance_loss(out, 1e-4), 1e-4, 1e-12);
}

}  // namespace
}  // namespace codesim::kernels
