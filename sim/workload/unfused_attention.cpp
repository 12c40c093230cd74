// Megatron-LM 2021's core attention, kernel by kernel (unfused_attention.hpp).
#include "sim/workload/unfused_attention.hpp"

#include <string>

#include "models/calibration/step_extras.hpp"

namespace codesim::workload {
namespace {

using cost::KernelClass;
using cost::KernelShape;

// Fractions of HBM bandwidth, fitted by tools/calibration/fit_step_extras.py to the H200 runs of
// models/calibration/h200/steps/h200_unfused_attention.json (12 heads x 2048 tokens x 128, with
// dropout; held out: 24 x 2048 x 128 +2.8%, 16 x 1024 x 128 -4.8%, 32 x 2048 x 64 +3.4%, 8 x 4096 x
// 128 -7.9%, the memory-bound kernels summed; fit_step_extras.json, embedded at build time).
namespace fit = calibration::step_extras;

PieceKernel batched_gemm(std::string name, const UnfusedAttentionShape& a, double m, double n,
                         double k) {
  return {std::move(name),
          KernelShape{.kind = KernelClass::gemm, .m = m, .n = n, .k = k, .batch = a.batch_heads},
          false, std::nullopt};
}

PieceKernel memory(std::string name, double bytes, double efficiency) {
  return {std::move(name),
          KernelShape{.kind = KernelClass::elementwise,
                      .bytes = core::Bytes(bytes),
                      .hbm_efficiency = efficiency},
          false, std::nullopt};
}

}  // namespace

std::vector<PieceKernel> unfused_attention_kernels(const UnfusedAttentionShape& a, Pass pass) {
  const double scores = a.batch_heads * a.seq * a.seq;
  const double qk = a.batch_heads * a.seq * a.d_qk;
  std::vector<PieceKernel> out;
  if (pass == Pass::forward) {
    out.push_back(batched_gemm("attention scores", a, a.seq, a.seq, a.d_qk));
    out.push_back(memory("attention softmax", 4 * scores, fit::unfused_softmax));
    if (a.dropout) {
      out.push_back(memory("attention dropout", 5 * scores, fit::unfused_dropout));
    }
    out.push_back(batched_gemm("attention context", a, a.seq, a.d_v, a.seq));
  } else if (pass == Pass::backward) {
    out.push_back(batched_gemm("attention probabilities gradient", a, a.seq, a.seq, a.d_v));
    out.push_back(batched_gemm("attention value gradient", a, a.seq, a.d_v, a.seq));
    if (a.dropout) {
      out.push_back(
          memory("attention dropout backward", 5 * scores, fit::unfused_dropout_backward));
    }
    out.push_back(memory("attention softmax backward", 6 * scores, fit::unfused_softmax_backward));
    out.push_back(
        memory("attention scores gradient scale", 4 * scores, fit::unfused_scores_gradient_scale));
    out.push_back(batched_gemm("attention query gradient", a, a.seq, a.d_qk, a.seq));
    out.push_back(batched_gemm("attention key gradient", a, a.seq, a.d_qk, a.seq));
    out.push_back(memory("attention query gradient scale", 4 * qk,
                         fit::unfused_q_and_k_gradient_scale_two_kernels));
    out.push_back(memory("attention key gradient scale", 4 * qk,
                         fit::unfused_q_and_k_gradient_scale_two_kernels));
    out.push_back(memory("attention key gradient copy", 4 * qk, fit::unfused_k_gradient_copy));
  }
  return out;
}

}  // namespace codesim::workload
