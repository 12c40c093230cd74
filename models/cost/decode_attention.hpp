// Time of decode attention: one new query token per request against the request's KV cache, as
// the kernels a software stack runs for it do it.
//
//   sdpa         PyTorch's scaled_dot_product_attention on Hopper, which picks cuDNN's fused
//                kernel for decode (h200_decode_kernels.json): a split-KV kernel and its
//                reduction, streaming the K and V caches:
//                  time = 2 x launch + fixed + KV bytes / (HBM x e)
//                (e, fixed fitted to 16 cuDNN decode cases of h200_decode.json; FLOPs only bound
//                it when many query heads share a KV head: Q K^T and P V at the fused
//                attention's FLOP efficiency)
//   mla_ops      MLA in its absorbed form as PyTorch ops (h200_moe_decode.py): cat of q's latent
//                and RoPE parts, a batched GEMM of the heads against the cached latent, the
//                scores cast to FP32, scaled, softmaxed and cast back (four elementwise kernels),
//                a batched GEMM of the probabilities against the latent: each kernel priced by
//                the kernel model, nothing fitted here
//   mla_fused    the same with the four score kernels fused into one (BF16 in and out), as a
//                compiler would: an assumption, no kernel measured
//   flash_mla    DeepSeek's FlashMLA: max(latent bytes / (HBM x e_mem), FLOPs / (BF16 peak x e))
//                from its published H800 figures (3000 GB/s memory-bound, 580 TFLOPS
//                compute-bound), a split kernel and a combine
#pragma once

#include "models/cost/kernel_cost.hpp"

namespace codesim::cost {

enum class DecodeAttentionKernel { sdpa, mla_ops, mla_fused, flash_mla };

struct DecodeAttentionShape {
  double requests = 1;  // one query token each
  double context = 0;   // cached tokens per request
  double heads = 1;     // query heads
  double kv_heads = 1;  // K/V heads (GQA; = heads for MHA)
  double d_qk = 128;    // per head (MLA absorbed: latent + RoPE)
  double d_v = 128;     // per head (MLA absorbed: latent)
  // MLA absorbed: the cache holds one latent of d_qk per token, shared by every head.
  bool latent = false;
};

struct DecodeAttentionParams {
  double sdpa_hbm_efficiency = 1;  // of HBM, the KV cache's stream
  core::Seconds sdpa_fixed;        // beyond the two kernels' fixed costs
  double flash_mla_hbm_efficiency = 1;
  double flash_mla_flop_efficiency = 1;  // of the BF16 peak
};

// Fitted and published values and their sources: decode_attention.cpp.
DecodeAttentionParams decode_attention_params();

// Bytes of the KV cache one decode step reads (BF16), and the step's FLOPs (Q K^T and P V).
core::Bytes decode_kv_bytes(const DecodeAttentionShape& s);
core::Flops decode_attention_flops(const DecodeAttentionShape& s);

struct DecodeAttentionCost {
  core::Seconds time;
  int kernels = 0;
  std::string bound;  // "memory" or "compute"
};

// `sms`: SMs left to the kernels.
DecodeAttentionCost predict_decode_attention(
    DecodeAttentionKernel kernel, const DecodeAttentionShape& s, const hardware::GpuSpec& gpu,
    int sms, const CostParams& common = default_params(),
    const DecodeAttentionParams& p = decode_attention_params());

}  // namespace codesim::cost
