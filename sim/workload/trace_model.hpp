// What each piece of an imported DeepSeek-style trace computes, from the model config, and the
// efficiencies that turn that work into the trace's kernel times: the basis of a replay that
// predicts kernel times on another GPU from work, not from the measured times alone.
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
#include "sim/workload/step_trace.hpp"

namespace codesim::workload {

struct PieceWork {
  double gemm_flops = 0;       // matrix products outside attention's core, in the GEMM dtype
  double bf16_gemm_flops = 0;  // those kept in BF16 whatever the GEMM dtype (output head)
  double attention_flops = 0;  // Q K^T and P V (causal)
};

// Work of one attention or mlp piece in a pass, for one layer on one GPU; a dense layer's mlp is
// its dense FFN (and its attention has no router). The head piece is the output head and the MTP
// modules (DeepSeek-V3 keeps the head in BF16; the MTP modules' experts run in the GEMM dtype,
// their other GEMMs in BF16). Other pieces do no model work.
PieceWork piece_work(const llm::LlmSpec& m, PieceId piece, int tokens, bool dense_layer = false);

// Efficiencies fitted to a measured trace: model FLOPs of a class over its kernels' time at the
// measured GPU's peak (GEMMs at the FP8 peak, as DeepSeek runs them; attention at BF16).
struct TraceFit {
  double gemm_efficiency = 0;
  double attention_forward_efficiency = 0;
  double attention_backward_efficiency = 0;
  std::map<PieceId, double> piece_gemm_efficiency;  // per piece, to show the spread
  // Per piece, the mean time per layer of its other kernels (casts to FP8, norms, activations,
  // permutes; on any stream, communication kernels excepted), in microseconds as measured.
  std::map<PieceId, double> piece_other_us;
};

TraceFit fit_trace(const StepTrace& t, const llm::LlmSpec& m, int tokens,
                   const hardware::GpuSpec& measured_on);

// Per-op durations on `target`: the GEMM and attention time of each piece instance predicted from
// its work and the fitted efficiencies, shared among the piece's kernels of that class in their
// measured proportions; other kernels roofline-scaled (scaled_durations); communication measured.
std::vector<double> predicted_durations(const StepTrace& t, const llm::LlmSpec& m, int tokens,
                                        const TraceFit& fit, const hardware::GpuSpec& measured_on,
                                        const hardware::GpuSpec& target);

}  // namespace codesim::workload
