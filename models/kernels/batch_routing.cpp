// Gate -> placement -> routing plan for one synthetic micro-batch.
#include "models/kernels/batch_routing.hpp"

namespace codesim::kernels {

RoutedBatch route_batch(const BatchRoutingSpec& s) {
  SkewSpec skew = s.skew;
  skew.expert_groups = s.gate.groups;
  const auto g = make_synthetic_gate(s.gate.experts, s.hidden, skew, s.seed);
  const auto tokens = sample_tokens(g, s.tokens, s.seed + 1);
  RoutedBatch out;
  out.unbalanced = gate(tokens, g.weight, Eigen::VectorXf::Zero(s.gate.experts), s.gate);
  if (s.balance_steps > 0) {
    const auto balance = balance_bias(g, s.gate,
                                      {.steps = s.balance_steps,
                                       .tokens_per_step = s.balance_tokens,
                                       .gamma = s.gamma,
                                       .seed = s.seed + 2});
    out.routed = gate(tokens, g.weight, balance.bias, s.gate);
  } else {
    out.routed = out.unbalanced;
  }
  out.placement = s.redundant > 0
                      ? eplb_placement(expert_load(out.routed, s.gate.experts), s.ep,
                                       s.gpus_per_node, s.redundant, s.eplb, s.gate.groups)
                      : contiguous_placement(s.gate.experts, s.ep, s.gpus_per_node);
  out.plan = make_routing_plan(out.routed, out.placement);
  return out;
}

}  // namespace codesim::kernels
