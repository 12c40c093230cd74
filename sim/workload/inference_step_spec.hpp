// A prefill or decode step's own facts (workload.kind prefill | decode): a scenario's inference:
// section. parameters.hpp declares each key with its doc and default (the struct's own,
// or derived where the doc says so). Not workload::InferenceSpec (inference.hpp), one GPU's
// compute per layer that a study builds from this and the model.
#pragma once

#include <string>
#include <vector>

#include "models/llm/llm_spec.hpp"
#include "sim/workload/inference_kind.hpp"

namespace codesim::workload {

struct InferenceStepSpec {
  // Priced by the kernel model, or by DeepSeek's ISCA bound (communication only).
  InferenceMode mode = InferenceMode::model;
  // Overlapped micro-batches: one's attention under the other's all-to-all. Derived: 2 for an
  // MoE model with ep > 1.
  int micro_batches = 1;
  int prompt_tokens_per_gpu = 16384;  // prefill: prompt tokens each GPU computes per step
  int requests_per_gpu = 64;          // decode: sequences each GPU decodes per step
  int context_len = 4096;             // decode: tokens in each request's KV cache
  int redundant_experts = 0;          // EPLB replicas in the EP group
  bool shared_expert_routed = false;  // decode: the shared expert as one more routed expert
  bool mtp = false;                   // multi-token prediction as a speculative draft
  double mtp_acceptance = 0.85;       // of the drafted token
  bool sampling = true;               // a sampling kernel reads the logits at the step's end
  int bound_hidden = 0;               // bound mode: channels per token on the wire; 0 = model's
  std::string expert_counts;          // a run's routing, per MoE layer (expert_shares.hpp)
  // That file read when the scenario is loaded: each MoE layer's expert shares (empty: none).
  std::vector<std::vector<double>> expert_shares;
};

// inference.micro_batches unless given: an MoE model whose experts are spread over ep > 1 GPUs
// overlaps two micro-batches (one's attention under the other's dispatch, experts and combine).
inline int default_micro_batches(const llm::LlmSpec& model, long long ep) {
  return model.moe.has_value() && ep > 1 ? 2 : 1;
}

}  // namespace codesim::workload
