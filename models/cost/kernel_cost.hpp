// Time of one kernel on a GPU: an SM roofline (tensor throughput of the SMs the kernel may use vs
// HBM bandwidth) with wave quantization, per-class efficiencies and a fixed cost per kernel. SMs
// held by communication kernels are taken away from the compute kernels that overlap them.
//
// GEMMs (C[m,n] = A[m,k] B[k,n]; grouped expert GEMMs: grouped_gemm.hpp):
//   tiles  = batch x ceil(m / tm) ceil(n / tn), the best of 128x128, 128x64, 64x128
//   compute = FLOPs / (dtype peak x SM share x e_dtype x tiles / (waves x SMs) x k / (k + k0))
//   splits  = max(1, floor(k / k_split_dtype))   (cuBLAS splits K across SMs when tiles are few;
//             BF16 only: the FP8 kernels timed did not)
//   memory  = bytes / (HBM x e_mem_dtype x min(1, tiles x splits / SMs))   (few: few SMs load)
//   time    = max(compute, memory) + fixed cost
// A plain BF16 GEMM whose contiguous dimensions (k and n of row-major A[m, k] B[k, n]) are not
// both multiples of 8 runs cuBLAS's fallback kernels: its compute efficiency is multiplied by the
// factor of its alignment (4, or 2 and 1). A weight gradient's k is the token count and its n the
// layer's output width (a vocabulary of 50,257 is unaligned in all three passes).
// Other kernels: bytes / (HBM x the class's efficiency) + fixed cost.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/hardware/hardware_spec.hpp"
#include "sim/core/units.hpp"

namespace codesim::cost {

enum class KernelClass {
  gemm,
  grouped_gemm,
  attention_forward,
  attention_backward,
  elementwise,
  norm,
  quantize,
  communication,
  memcpy,
  optimizer,
  // Moving tokens to and from their experts' rows: gathers, index copies and adds, scatters, cats.
  permute,
  // The router's small kernels: sorts, top-k, histograms, scans.
  router
};
enum class DType { bf16, fp8, fp32 };

std::string_view kernel_class_name(KernelClass c);
std::string_view dtype_name(DType d);
std::optional<KernelClass> kernel_class_from(std::string_view name);
std::optional<DType> dtype_from(std::string_view name);
double dtype_bytes(DType d);

// What a kernel does. GEMMs give m, n, k and batch (C[m,n] = A[m,k] B[k,n], `batch` times);
// grouped GEMMs give each group's m in `group_m` (m and batch unused), or, weight gradients,
// each group's k (its rows) in `group_k` (k and batch unused); a grouped GEMM with neither is
// `batch` groups of m x n x k. Other classes give flops and bytes.
struct KernelShape {
  KernelClass kind = KernelClass::gemm;
  DType dtype = DType::bf16;
  double m = 0, n = 0, k = 0, batch = 1;
  std::vector<double> group_m;
  std::vector<double> group_k;
  // GEMMs: elements both contiguous dimensions are multiples of (8 or more: the fast kernels);
  // 0: from k and n, the contiguous dimensions of row-major A[m, k] B[k, n].
  int alignment = 0;
  core::Flops flops;  // derived for GEMMs when left 0
  core::Bytes bytes;  // HBM traffic; derived for GEMMs when left 0
  // Memory-bound kernels measured on their own (a software stack's gathers, index adds, ...):
  // their fraction of HBM bandwidth; 0: the class's (memory_efficiency).
  double hbm_efficiency = 0;
  // Memory-bound kernels: a fixed time of their own measured on them (the router's sorts and
  // top-k), beyond the fixed cost every kernel pays.
  core::Seconds fixed;
  // Memory-bound kernels whose bytes also pass a limit that is not HBM's (atomics, scattered rows
  // in L2): that rate, in series with HBM at hbm_efficiency; 0: none.
  core::BytesPerSecond beside_hbm;
  // Memory-bound kernels: how many kernels the shape stands for (an eager op written as several
  // PyTorch calls, its bytes those of all of them); each pays the fixed cost.
  int launches = 1;
};

// One grouped-GEMM configuration's terms (grouped_gemm.hpp).
struct GroupedTerms {
  double efficiency = 1;              // e: of the unit's share of the dtype's peak
  core::BytesPerSecond operand_rate;  // operand panels loaded, per SM
  core::BytesPerSecond write_rate;    // epilogue writes, per SM
  double blend = 2;  // p: how compute and loads overlap (large: the longer of the two)
  // Extra per tile of a group whose K spans an odd number of 64-wide k-tiles (FP8's wide
  // weight gradient runs them slower than the even count above: h200_fp8_wgrad_k.json).
  core::Seconds odd_k_tiles;
};

// A dtype's configurations (`wide`: FP8's 256 x 256 cluster tile) and its whole-kernel terms.
struct GroupedDtypeTerms {
  GroupedTerms ping, coop, coop_wgrad, wide, wide_wgrad;
  double memory_efficiency = 1;  // fraction of HBM bandwidth for all the kernel's bytes
  core::Seconds setup;           // per kernel, beyond the fixed cost every kernel pays
};

struct GroupedGemmParams {
  GroupedDtypeTerms bf16;
  GroupedDtypeTerms fp8;
};

// The model's parameters. Defaults and the data each was fitted to are in kernel_cost.cpp.
struct CostParams {
  // GEMMs: fraction of the dtype's dense peak a full wave reaches, and a per-tile fixed cost
  // expressed as extra K elements (prologue, epilogue; for FP8 also the FP32 promotions).
  double gemm_efficiency_bf16;
  double gemm_efficiency_fp8;
  double gemm_k0_bf16;
  double gemm_k0_fp8;
  // GEMMs bound by their operands (small m, as in decode): fraction of HBM bandwidth.
  double gemm_memory_efficiency_bf16;
  double gemm_memory_efficiency_fp8;
  // K elements per split-K slice when the loads are spread over SMs (0: K is not split).
  double gemm_k_split_bf16;
  double gemm_k_split_fp8;
  // The epilogue apart from the main loop: each tile's main loop reads A and B (at the memory
  // efficiency above), then its epilogue writes C at this fraction of HBM bandwidth; across waves
  // one's epilogue runs under the next one's main loop, so the longer of the two sets the time
  // and the shorter adds its last wave's share. 0: no epilogue apart (C's bytes moved with A's
  // and B's).
  double gemm_write_efficiency_bf16 = 0;
  double gemm_write_efficiency_fp8 = 0;
  // The narrowest N tile the FP8 GEMM library picks to fill the SMs when M is small, 64 rows
  // high (0: none narrower than 64; DeepGEMM's 16).
  double gemm_fp8_narrow_tile_n = 0;
  // BF16 GEMMs whose contiguous dimensions are multiples of 4 but not 8, and of neither: factor
  // on the compute efficiency (cuBLAS's fallback kernels).
  double gemm_align4_factor;
  double gemm_align1_factor;
  // Grouped expert GEMMs by their CUTLASS configuration (grouped_gemm.hpp).
  GroupedGemmParams grouped;
  // A software stack's FP8 GEMMs against the PyTorch kernels the fits timed (per-tensor scaled
  // torch._scaled_mm; row-wise scaled torch._scaled_grouped_mm): factors on their compute
  // efficiency, plain and grouped (1; DeepSeek's from its trace).
  double fp8_compute_scale = 1;
  double fp8_grouped_compute_scale = 1;
  // Attention given by FLOPs and bytes only (decode's core attention): fraction of the BF16 peak.
  // Fused attention by shape has its own terms (attention_cost.hpp).
  double attention_forward_efficiency;
  double attention_backward_efficiency;
  // Memory-bound kernels: fraction of HBM bandwidth per class.
  double norm_efficiency;
  double elementwise_efficiency;
  double quantize_efficiency;
  double memcpy_efficiency;
  double optimizer_efficiency;
  // Fixed cost of each kernel (launch gap and tail), paid by every kernel.
  core::Seconds launch_overhead;
};

// HBM efficiency of a memory-bound class: attention streams its inputs like a copy; classes
// without their own are elementwise.
double memory_efficiency(KernelClass c, const CostParams& p);

CostParams default_params();

struct KernelCost {
  core::Seconds time;
  std::string bound;      // "compute" or "memory"
  double efficiency = 0;  // of the peak that bounds it, wave quantization included
  double waves = 0;       // GEMMs
  int sms = 0;            // SMs it ran on
  core::Flops flops;
  core::Bytes bytes;
};

// `sms` = SMs left to the kernel (the GPU's, minus those held by overlapping communication).
KernelCost predict(const KernelShape& k, const hardware::GpuSpec& gpu, int sms,
                   const CostParams& p);
// Largest of 8, 4, 2, 1 that divides both contiguous dimensions.
int gemm_alignment(double k, double n);

inline KernelCost predict(const KernelShape& k, const hardware::GpuSpec& gpu) {
  return predict(k, gpu, gpu.sms, default_params());
}

}  // namespace codesim::cost
