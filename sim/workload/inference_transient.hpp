// What an inference step allocates on one GPU beside its weights and KV cache: the largest set of
// tensors alive at once while a layer's forward runs without autograd, or while the head computes
// the logits (docs/model/memory.md, "Inference"). Validated against the allocator's peak of the
// reference decoders (models/calibration/h200/decode/h200_inference_memory.json, compiled;
// models/calibration/h100/memory/, eager, dense and MoE).
//
// Every stack keeps the layer's input (its caller holds it) and the residual stream after the
// attention while the FFN runs. Beyond those:
//   fused (torch.compile, and DeepSeek's kernels): a buffer dies at its last use, so the peak is
//     a GEMM's input and output, or the SwiGLU's input (2f) and output (f); in the attention, the
//     projections' output (q, k, v) with the roped q and k and the attention's output;
//   pytorch (eager, a model written as modules): a module's intermediates live until it returns,
//     so the attention's are gone when the FFN runs, whose argument (the norm output) is alive
//     through it, and SwiGLU holds its input, SiLU's output and the product at once (2f + f + f);
//     an MoE layer holds the padded rows, the experts' SwiGLU input, their outputs and the two
//     gathered copies of them with the weighted product (as the reference MoE module writes it).
// With tensor parallelism (attention TP with sequence parallelism, as the step is priced) a GPU
// keeps its own tokens' residual stream, the TP group's gathered norm output, and its share of
// the heads and FFN columns for the group's tokens. The head: the final norm and the logits
// (BF16) of the positions that need them (prefill: each prompt's last; decode: every request),
// the TP group's positions gathered, each GPU its share of the vocabulary.
// Micro-batches in flight each hold their own (their peaks are taken as coinciding).
#pragma once

#include <string>
#include <vector>

#include "models/llm/llm_spec.hpp"
#include "sim/workload/saved_tensors.hpp"
#include "sim/workload/software_stack.hpp"

namespace codesim::workload {

struct TransientContext {
  double tokens = 0;      // per micro-batch on this GPU: prompt tokens (prefill) or requests
  double logit_rows = 0;  // positions whose logits one micro-batch computes
  int tp = 1;
  double expert_rows = 0;  // token-expert pairs the GPU's routed experts take (0: tokens x top-k)
  double local_experts = 1;
  int micro_batches = 1;
};

struct TransientPeak {
  std::string where;                 // "layer 0 (FFN)", "output head", ...
  std::vector<SavedTensor> tensors;  // alive at the peak, one micro-batch's
  double bytes = 0;                  // every micro-batch's
};

TransientPeak inference_transient(const llm::LlmSpec& m, SoftwareStack stack,
                                  const TransientContext& c);

}  // namespace codesim::workload
