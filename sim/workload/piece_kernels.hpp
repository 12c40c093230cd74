// The kernels one piece of a layer launches on one GPU (docs/model/deepseek-v3.md §9's pieces:
// attn, mlp, head; F, B, W), with their shapes, from models/llm's op tables, and their time from
// models/cost.
//
// Per op of the piece, in pass F (forward), B (input gradient) or W (weight gradient):
//   GEMM rows x in -> out        F: m = rows, n = out, k = in    B: m = rows, n = in, k = out
//                                W: m = in, n = out, k = rows    (grouped: per expert group)
//   FP8 GEMM                     plus a cast to FP8 of the operand the pass produces, as is and
//                                transposed for the weight gradient (F: the input, B: the output
//                                gradient; W reads those copies): 4 bytes per element; none for
//                                the experts' input (F) and output gradient (B), which FP8
//                                dispatch and combine(B) deliver in FP8
//   attention core               a fused kernel by shape (heads, d_qk, d_v, sequence, causal);
//                                B is forward + backward less forward; plus rotary embedding of
//                                the queries and keys (read and write, F and B)
//   RMSNorm over w channels      F: read + write rows x w; B: read x and dy, write dx
//   SwiGLU over w channels       F: read gate and up, write out (FP8 GEMMs: the down
//                                projection's FP8 input, as is and transposed, instead of its
//                                cast); B: read 3, write 2
//   routed experts               F and B: permute the tokens to their experts and back (FP8 out,
//                                BF16 back: 3 bytes per row and channel each way, and the sum)
// Tensor parallelism (Megatron, with sequence parallelism): column-parallel projections (Q, KV
// up, FFN up, head) split their outputs over the TP group, row-parallel ones (attention out, FFN
// down) their inputs, attention its heads, the FFN activation its width; norms and the routed
// experts' tokens are split by sequence parallelism; MLA's down projections and the router are
// replicated. Element sizes are BF16 (2 bytes) unless said. Routed experts run as grouped GEMMs
// over the experts this GPU hosts, each with its own rows (the routing plan's, or tokens x top-k
// spread evenly). The router and the output head stay in BF16 (DeepSeek-V3's recipe); the MTP
// modules' experts run in the GEMM dtype and their other GEMMs in BF16.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/cost/attention_cost.hpp"
#include "models/cost/clock_model.hpp"
#include "models/cost/decode_attention.hpp"
#include "models/cost/kernel_cost.hpp"
#include "models/hardware/hardware_spec.hpp"
#include "models/llm/layer_ops.hpp"
#include "models/llm/llm_spec.hpp"
#include "sim/core/units.hpp"
#include "sim/workload/piece_id.hpp"

namespace codesim::workload {

struct KernelContext {
  int tokens = 4096;   // of the micro-batch on this GPU
  int seq_len = 4096;  // tokens per sequence (attention's shape)
  bool fp8_gemm = true;
  int ep = 1;  // the routed experts are spread over this many GPUs
  int tp = 1;  // tensor parallelism: heads and FFN columns split over this many GPUs
  bool sequence_parallel = true;  // tp > 1: norms and the experts' tokens split too
  // Rows each expert hosted by the busiest GPU takes; empty: tokens x top-k spread evenly.
  std::vector<double> expert_rows;
  // Decoding: KV-cache tokens per request; each token is a request's one new query and the
  // attention core is decode attention over its cache (0: not decoding).
  int decode_context = 0;
  // The MoE's shared experts run in the mlp piece (false: they run as routed ones).
  bool shared_experts = true;
  // Training: the head piece ends in the loss over the vocabulary (the stack's loss kernels).
  bool loss = false;
  // Attention's core as Megatron-LM's 2021 kernels (unfused_attention.hpp), not one fused kernel.
  bool unfused_attention = false;
  // Training applies dropout: a mask per element of the residual stream's dropouts (written in
  // F, read in B) and, with unfused attention, over the attention probabilities.
  bool dropout = false;
  // DeepSeek-V3's recomputation (its report, arXiv 2412.19437 §3.3.3 and §3.3.2): the input
  // backward pieces first run again every RMSNorm of the piece and MLA's up projections (with
  // their FP8 casts), the weight-gradient piece of the MLP the MoE's SwiGLU (its output, the
  // down projection's input, was not kept).
  bool recompute_selected = false;
  // Training with several micro-batches a step: the bytes per weight element that adding a
  // micro-batch's weight gradient into the step's gradient buffer moves (the new gradient read,
  // the buffer read and written), after each weight-gradient GEMM and the embedding table's
  // gradient; 0: not priced (one micro-batch, a stack whose trace holds it, sharded gradients).
  double gradient_accumulation = 0;
};

struct PieceKernel {
  std::string op;  // the op it serves: "q_down", "cast q_down", "attention_core", ...
  cost::KernelShape shape;
  bool weight_gradient = false;                   // a GEMM of the W pass
  std::optional<cost::AttentionShape> attention;  // set for the fused attention kernel
  bool gated_activation = false;  // SwiGLU's activation (a stack may run it as several kernels)
  bool residual_norm = false;     // a norm of the residual stream (a stack may fuse the add in)
  // Set for decode attention (the stack picks its kernel).
  std::optional<cost::DecodeAttentionShape> decode_attention;
};

// Rows each routed expert hosted here takes (of `experts` in all): the routing plan's, or tokens
// x top-k spread evenly; split over the TP group under sequence parallelism.
std::vector<double> expert_group_rows(const llm::LlmSpec& m, const KernelContext& c,
                                      double experts);

// The model's ops a piece computes in one layer, at `tokens` tokens: attn = the attention ops
// and, in MoE layers, the FFN norm and the router (dispatch needs their result); mlp = the dense
// FFN, or the MoE's shared and routed experts; head = the output head and the MTP modules. Other
// pieces compute nothing.
std::vector<llm::LayerOp> piece_ops(const llm::LlmSpec& m, PieceId piece, int tokens,
                                    const llm::LayerKind& layer);

// The kernels of `piece` in one layer of kind `layer` (not MoE: its mlp is the dense FFN and its
// attention has no router; its span sets the attention's keys and decode's cached tokens).
// combine(B) casts the gradient to FP8 on the communication stream before sending it (FP8 GEMMs);
// other pieces that compute nothing (dispatch, send, ...) have none.
std::vector<PieceKernel> piece_kernels(const llm::LlmSpec& m, PieceId piece, const KernelContext& c,
                                       const llm::LayerKind& layer);

// Time of a piece's kernels in sequence, split by what bounds them.
struct PieceCost {
  core::Seconds total;
  core::Seconds gemm;       // GEMMs and grouped GEMMs
  core::Seconds grouped;    // the grouped GEMMs' part of `gemm`
  core::Seconds attention;  // the fused attention kernels
  core::Seconds memory;     // casts, norms, activations, rotary, permutes
  core::Seconds host;       // the device idle while the host issues kernels (no CUDA graphs)
  int kernels = 0;
  cost::Work work;  // the kernels' time at the top clock by kind of work (its power)

  PieceCost& operator+=(const PieceCost& o) {
    total += o.total;
    gemm += o.gemm;
    grouped += o.grouped;
    attention += o.attention;
    memory += o.memory;
    host += o.host;
    kernels += o.kernels;
    work += o.work;
    return *this;
  }
};

struct KernelParams {
  cost::CostParams kernel;
  cost::AttentionParams attention;
  // FP8 weight-gradient GEMMs (K = tokens, both operands scaled along it) against the others,
  // plain and grouped.
  double fp8_wgrad_scale = 1;
  double fp8_grouped_wgrad_scale = 1;
  // The stack's decode attention kernels: grouped-query (and multi-head) attention, and MLA.
  cost::DecodeAttentionKernel decode_gqa = cost::DecodeAttentionKernel::sdpa;
  cost::DecodeAttentionKernel decode_mla = cost::DecodeAttentionKernel::mla_ops;
};

// `sms`: SMs left to the piece (the GPU's less those communication holds meanwhile).
PieceCost price(const std::vector<PieceKernel>& kernels, const hardware::GpuSpec& gpu, int sms,
                const KernelParams& p);

}  // namespace codesim::workload
