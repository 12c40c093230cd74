// What the pieces of an imported DeepSeek-style trace compute, predicted kernel by kernel
// (piece_kernels.hpp) and set against the trace's kernel times: the scales that carry DeepSeek's
// own kernels (fine-grained FP8 GEMMs, fused casts and the small kernels the op tables do not
// list) onto the H200-fitted kernel model, per kernel class, and the per-piece comparison that
// validates the model (codesim trace replay).
//
// Per layer and GPU, micro-batch of `tokens` tokens, balanced routing (each GPU receives
// tokens x top-k expert rows): attn(F) = forward of the MLA projections and the router; attn(B) =
// their input gradients and the attention core's backward; attn(W) = their weight gradients;
// mlp(F|B|W) = routed experts plus the shared expert, forward / input grad / weight grad.
// The attention core's forward sits in attn(F). Dispatch and combine compute nothing.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "models/hardware/hardware_spec.hpp"
#include "models/llm/llm_spec.hpp"
#include "sim/workload/piece_id.hpp"
#include "sim/workload/piece_kernels.hpp"
#include "sim/workload/step_trace.hpp"

namespace codesim::workload {

// Model FLOPs of one piece in one layer (the counting convention of models/llm/analytics.hpp).
struct PieceWork {
  double gemm_flops = 0;       // matrix products outside attention's core, in the GEMM dtype
  double bf16_gemm_flops = 0;  // those kept in BF16 whatever the GEMM dtype (output head)
  double attention_flops = 0;  // Q K^T and P V (causal)
};

// Work of one attention or mlp piece in a pass, for one layer on one GPU; a dense layer's mlp is
// its dense FFN (and its attention has no router). The head piece is the output head and the MTP
// modules (DeepSeek-V3 keeps the head in BF16; the MTP modules' experts run in the GEMM dtype,
// their other GEMMs in BF16). Other pieces do no model work.
PieceWork piece_work(const llm::LlmSpec& m, PieceId piece, int tokens,
                     const llm::LayerKind& layer = llm::kMoeLayer);

// Measured and predicted time of a piece per layer (mean over the trace's instances), by class.
struct PieceComparison {
  int instances = 0;
  double measured_gemm_us = 0, predicted_gemm_us = 0;
  double measured_attention_us = 0, predicted_attention_us = 0;
  double measured_other_us = 0, predicted_other_us = 0;  // memory-bound and small kernels
  double measured_us() const { return measured_gemm_us + measured_attention_us + measured_other_us; }
  double predicted_us() const {
    return predicted_gemm_us + predicted_attention_us + predicted_other_us;
  }
};

// The trace against the kernel model: `fp8_gemm_scale` multiplies the plain FP8 GEMMs' compute
// efficiency and `fp8_grouped_scale` the grouped ones'; `fp8_wgrad_scale` and
// `fp8_grouped_wgrad_scale` those again for the weight-gradient GEMMs (the W pieces'); and
// `memory_scale` the memory-bound classes' (norm, elementwise, quantize). They make the model's
// GEMM time equal the measured one over the trace's pieces without grouped GEMMs (attention:
// plain GEMMs only) and over those with them (the MoE pieces, whose plain GEMMs take the first
// scale), each for the F and B pieces and for the W pieces, and its other kernels' time equal
// the measured one. `pieces` compares piece by piece with the scales applied (the totals agree by
// construction, the pieces need not).
struct TraceFit {
  double fp8_gemm_scale = 1;
  double fp8_wgrad_scale = 1;
  double fp8_grouped_scale = 1;
  double fp8_grouped_wgrad_scale = 1;
  double memory_scale = 1;
  std::map<PieceId, PieceComparison> pieces;
};

// What the trace ran: the model, tokens per micro-batch and GPU, the GPU, the SMs communication
// held while the pieces ran (DeepEP's 20 in DeepSeek's overlapped pair), and the model's
// parameters before the trace's scales.
struct TraceSetting {
  const llm::LlmSpec* model = nullptr;
  KernelContext kernels;
  hardware::GpuSpec gpu;
  int held_sms = 0;
  KernelParams params;
};

// Throws std::invalid_argument when the trace has no GEMM kernels inside pieces.
TraceFit fit_trace(const StepTrace& t, const TraceSetting& s);

// `p` with a fit's scales applied.
KernelParams with_trace_scales(KernelParams p, const TraceFit& fit);

// Per-op durations on `target` with parameters `p`: each piece instance's GEMM, attention and
// other time predicted by the kernel model, shared among its measured kernels of that class in
// their measured proportions; ops outside pieces roofline-scaled (scaled_durations),
// communication as measured.
std::vector<double> predicted_durations(const StepTrace& t, const TraceSetting& s,
                                        const hardware::GpuSpec& target, const KernelParams& p);

}  // namespace codesim::workload
