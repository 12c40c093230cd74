// What a transformer layer keeps for its backward pass, tensor by tensor, as each software stack
// runs it (docs/model/memory.md): the activation memory of one layer and micro-batch on one GPU.
//
// Per layer, in the op tables' order (models/llm/layer_ops.hpp), every stack keeps:
//   the layer's input (the residual stream; its norm's input) and each norm's 1/rms (FP32);
//   each norm's output, the input of the projections after it (one tensor for all of them);
//   MLA: the query and KV latents' norms' inputs and outputs (the down projections' outputs and
//     the up projections' inputs: replicated over TP, as those projections are);
//   the attention core's inputs and outputs as flash attention keeps them: q, k, v (MLA: v as a
//     view of the KV up projection's output, k_nope beside it), O and the log-sum-exp (FP32);
//     with MLA, the output projection's input is O made contiguous (a copy);
//   SwiGLU: its input (gate and up, 2f) and its output (the down projection's input, f); eager
//     PyTorch keeps SiLU's output too (f); a GELU MLP its input and output (f each);
//   an MoE layer: the router's FP32 scores and its picks, the R rows its experts take gathered
//     from the tokens, the padded buffer the grouped GEMMs read (R + 8 per local expert rows),
//     the experts' SwiGLU tensors over those rows, and the experts' outputs gathered back twice
//     (the rows, and as tokens x k for the weighted sum's backward; torch.compile keeps one of
//     the two row copies fewer); the shared experts as a dense SwiGLU.
// DeepSeek's stack (DeepSeek-V3 report, arXiv 2412.19437 §3.2.3 and §3.3.3): RMSNorm outputs and
// MLA's up projections recomputed in backward (the norm outputs, q, k and v are not kept); the
// FP8 GEMMs' inputs kept in FP8 (1 byte + a 4-byte scale per 128 elements); the attention's
// output, the output projection's input, in E5M6 (1.5 bytes) and kept once; SwiGLU's input kept
// in FP8 and its output recomputed; the routing weight applied to the experts' SwiGLU output
// (assumed: the report does not say), so their outputs are not kept for the weight's gradient.
//
// Tensor parallelism (Megatron with sequence parallelism): the residual stream, the norms and
// their outputs split by sequence (kept un-gathered, re-gathered in backward), the heads and FFN
// columns split over the group; without sequence parallelism the sequence-split tensors are
// whole on every GPU. The MoE's rows are the busiest GPU's, as its grouped GEMMs are priced.
// Dropout masks (no shipped model uses dropout) are not kept.
#pragma once

#include <string>
#include <vector>

#include "models/llm/llm_spec.hpp"
#include "sim/workload/software_stack.hpp"

namespace codesim::workload {

struct SavedTensor {
  std::string name;  // "attention q", "experts SwiGLU input", ...
  double bytes = 0;  // on this GPU, for the micro-batch
};

struct ActivationContext {
  double tokens = 4096;  // of the micro-batch (per CP shard), before any TP split
  int tp = 1;
  bool sequence_parallel = true;
  double expert_rows = 0;    // rows the GPU's routed experts take (0: tokens x top-k)
  double local_experts = 1;  // routed experts the GPU hosts
  // Attention as Megatron-LM's 2021 kernels: the softmax's output over seq_len keys per query and
  // head is kept (flash attention keeps the log-sum-exp instead).
  bool unfused_attention = false;
  double seq_len = 4096;
  // Dropout: a 1-byte mask per element of each residual dropout and, unfused, of the
  // probabilities, with the dropped probabilities themselves.
  bool dropout = false;
};

std::vector<SavedTensor> saved_tensors(const llm::LlmSpec& m, const llm::LayerKind& layer,
                                       SoftwareStack stack, const ActivationContext& c);

// The output head and its loss, for the main model and each MTP module: the final norm's input
// and 1/rms, the head's input, and the logits the loss keeps (eager PyTorch: cast to FP32; a
// fused loss keeps the BF16 logits), T x V / TP of them.
std::vector<SavedTensor> head_saved_tensors(const llm::LlmSpec& m, SoftwareStack stack,
                                            const ActivationContext& c);

double total_bytes(const std::vector<SavedTensor>& tensors);

}  // namespace codesim::workload
