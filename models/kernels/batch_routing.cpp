// Gate -> placement -> routing plan for one synthetic micro-batch.
#include "models/kernels/batch_routing.hpp"

#include <algorithm>
#include <exception>

namespace codesim::kernels {

std::vector<RoutedBatch> route_batches(const BatchRoutingSpec& s, int count) {
  SkewSpec skew = s.skew;
  skew.expert_groups = s.gate.groups;
  const auto g = make_synthetic_gate(s.gate.experts, s.hidden, skew, s.seed);
  Eigen::VectorXf bias = Eigen::VectorXf::Zero(s.gate.experts);
  if (s.balance_steps > 0) {
    bias = balance_bias(g, s.gate,
                        {.steps = s.balance_steps,
                         .tokens_per_step = s.balance_tokens,
                         .gamma = s.gamma,
                         .seed = s.seed + 2})
               .bias;
  }
  // Each batch depends only on its own seed: they are routed in parallel (the same result on any
  // number of threads; Eigen's GEMM inside runs on one thread then).
  // An exception may not leave a parallel region: the first one is kept and thrown after it.
  std::vector<RoutedBatch> out(static_cast<std::size_t>(std::max(0, count)));
  std::vector<std::exception_ptr> failed(out.size());
#pragma omp parallel for schedule(dynamic)
  for (int i = 0; i < count; ++i) {
    try {
      // Seeds s.seed + 1 + 2i: never the gate's (s.seed) nor the balancing's (s.seed + 2).
      const auto tokens =
          sample_tokens(g, s.tokens, s.seed + 1 + 2 * static_cast<std::uint64_t>(i));
      RoutedBatch b;
      // The gate without bias, for comparison, only for the first batch (it costs a gate).
      if (i == 0 || s.balance_steps == 0) {
        b.unbalanced = gate(tokens, g.weight, Eigen::VectorXf::Zero(s.gate.experts), s.gate);
      }
      b.routed = s.balance_steps > 0 ? gate(tokens, g.weight, bias, s.gate) : b.unbalanced;
      b.placement = s.redundant > 0
                        ? eplb_placement(expert_load(b.routed, s.gate.experts), s.ep,
                                         s.gpus_per_node, s.redundant, s.eplb, s.gate.groups)
                        : contiguous_placement(s.gate.experts, s.ep, s.gpus_per_node);
      b.plan = make_routing_plan(b.routed, b.placement);
      out[static_cast<std::size_t>(i)] = std::move(b);
    } catch (...) {
      failed[static_cast<std::size_t>(i)] = std::current_exception();
    }
  }
  for (const auto& e : failed) {
    if (e) {
      std::rethrow_exception(e);
    }
  }
  return out;
}

RoutedBatch route_batch(const BatchRoutingSpec& s) {
  return std::move(route_batches(s, 1).front());
}

core::Note routing_note(const BatchRoutingSpec& s, int count) {
  return {core::NoteKind::method,
          std::to_string(count) + " batch(es) of " + std::to_string(s.tokens / std::max(1, s.ep)) +
              " tokens per GPU routed by the reference gate (top-" + std::to_string(s.gate.topk) +
              " of " + std::to_string(s.gate.experts) + " experts within " +
              std::to_string(s.gate.topk_groups) +
              " nodes) over synthetic tokens and gate weights (no trained router), " +
              (s.balance_steps > 0
                   ? "with the bias balanced over " + std::to_string(s.balance_steps) + " steps"
                   : std::string("with no bias")) +
              (s.redundant > 0 ? ", " + std::to_string(s.redundant) + " redundant experts (EPLB)"
                               : std::string())};
}

}  // namespace codesim::kernels
