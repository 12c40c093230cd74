// Decode attention by kernel: cuDNN's SDPA fit, MLA's absorbed ops through the kernel model,
// FlashMLA's published rates.
#include "models/cost/decode_attention.hpp"

#include <algorithm>

#include "models/calibration/decode_attention.hpp"

namespace codesim::cost {
namespace {

constexpr double kBf16 = 2;
constexpr double kFp32 = 4;

DecodeAttentionCost add(DecodeAttentionCost total, const KernelCost& k) {
  total.time += k.time;
  total.kernels += 1;
  return total;
}

DecodeAttentionCost sdpa(const DecodeAttentionShape& s, const hardware::GpuSpec& gpu, int sms,
                         const CostParams& common, const DecodeAttentionParams& p) {
  const core::Seconds memory =
      decode_kv_bytes(s) / (gpu.hbm_bandwidth * p.sdpa_hbm_efficiency) + p.sdpa_fixed;
  const core::Seconds compute =
      decode_attention_flops(s) /
      (gpu.bf16_peak * (static_cast<double>(sms) / gpu.sms) * common.attention_forward_efficiency);
  return {.time = std::max(memory, compute) + common.launch_overhead * 2.0,
          .kernels = 2,
          .bound = compute > memory ? "compute" : "memory"};
}

// q = cat(latent, rope) per head; scores = q cache^T (batched over requests); FP32 cast, scale,
// softmax, BF16 cast (or one fused kernel); out = p cache[..., :latent].
DecodeAttentionCost mla_ops(const DecodeAttentionShape& s, const hardware::GpuSpec& gpu, int sms,
                            const CostParams& common, bool fused) {
  const double scores = s.requests * s.heads * s.context;
  DecodeAttentionCost c{.bound = "memory"};
  c = add(c, predict({.kind = KernelClass::elementwise,
                      .bytes = core::Bytes(s.requests * s.heads * s.d_qk * kBf16 * 2)},
                     gpu, sms, common));
  const KernelCost qk = predict(
      {.kind = KernelClass::gemm, .m = s.heads, .n = s.context, .k = s.d_qk, .batch = s.requests},
      gpu, sms, common);
  c = add(c, qk);
  if (fused) {
    c = add(c, predict({.kind = KernelClass::elementwise, .bytes = core::Bytes(scores * kBf16 * 2)},
                       gpu, sms, common));
  } else {
    // BF16 -> FP32, x scale, softmax, FP32 -> BF16.
    for (const auto& [kind, bytes] : {std::pair{KernelClass::elementwise, kBf16 + kFp32},
                                      {KernelClass::elementwise, 2 * kFp32},
                                      {KernelClass::norm, 2 * kFp32},
                                      {KernelClass::elementwise, kFp32 + kBf16}}) {
      c = add(c, predict({.kind = kind, .bytes = core::Bytes(scores * bytes)}, gpu, sms, common));
    }
  }
  const KernelCost pv = predict(
      {.kind = KernelClass::gemm, .m = s.heads, .n = s.d_v, .k = s.context, .batch = s.requests},
      gpu, sms, common);
  c = add(c, pv);
  if (qk.bound == "compute" || pv.bound == "compute") {
    c.bound = "compute";
  }
  return c;
}

DecodeAttentionCost flash_mla(const DecodeAttentionShape& s, const hardware::GpuSpec& gpu, int sms,
                              const CostParams& common, const DecodeAttentionParams& p) {
  const double share = static_cast<double>(sms) / gpu.sms;
  const core::Seconds memory =
      decode_kv_bytes(s) / (gpu.hbm_bandwidth * p.flash_mla_hbm_efficiency);
  const core::Seconds compute =
      decode_attention_flops(s) / (gpu.bf16_peak * share * p.flash_mla_flop_efficiency);
  return {.time = std::max(memory, compute) + common.launch_overhead * 2.0,
          .kernels = 2,
          .bound = compute > memory ? "compute" : "memory"};
}

}  // namespace

DecodeAttentionParams decode_attention_params() {
  return {// tools/calibration/fit_decode_attention.py: the 16 cuDNN decode cases of
          // models/calibration/h200/decode/h200_decode.json not held out (Llama 3.1 8B heads,
          // batch 1-256, context 1K-8K, CUDA-graph timed on the H200); its output
          // fit_decode_attention.json, embedded at build time.
          .sdpa_hbm_efficiency = calibration::decode_attention::sdpa_hbm_efficiency,
          .sdpa_fixed = core::Seconds(calibration::decode_attention::sdpa_fixed_s),
          // FlashMLA's published H800 figures (docs/model/inference.md): 3000 GB/s of the H800's
          // 3350 GB/s, 580 of its 989 BF16 TFLOPS.
          .flash_mla_hbm_efficiency = 3000.0 / 3350.0,
          .flash_mla_flop_efficiency = 580.0 / 989.0};
}

core::Bytes decode_kv_bytes(const DecodeAttentionShape& s) {
  // MLA: one latent of d_qk (latent + RoPE) per token; GQA/MHA: K of d_qk and V of d_v per KV
  // head.
  const double per_token = s.latent ? s.d_qk : s.kv_heads * (s.d_qk + s.d_v);
  return core::Bytes(s.requests * s.context * per_token * kBf16);
}

core::Flops decode_attention_flops(const DecodeAttentionShape& s) {
  return core::Flops(2.0 * s.requests * s.heads * s.context * (s.d_qk + s.d_v));
}

DecodeAttentionCost predict_decode_attention(DecodeAttentionKernel kernel,
                                             const DecodeAttentionShape& s,
                                             const hardware::GpuSpec& gpu, int sms,
                                             const CostParams& common,
                                             const DecodeAttentionParams& p) {
  sms = std::clamp(sms, 1, gpu.sms);
  switch (kernel) {
    case DecodeAttentionKernel::sdpa:
      return sdpa(s, gpu, sms, common, p);
    case DecodeAttentionKernel::mla_ops:
      return mla_ops(s, gpu, sms, common, false);
    case DecodeAttentionKernel::mla_fused:
      return mla_ops(s, gpu, sms, common, true);
    case DecodeAttentionKernel::flash_mla:
      return flash_mla(s, gpu, sms, common, p);
  }
  return {};
}

}  // namespace codesim::cost
