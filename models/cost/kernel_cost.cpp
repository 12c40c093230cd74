// The kernel cost model and its fitted defaults.
#include "models/cost/kernel_cost.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "models/calibration/attention.hpp"
#include "models/calibration/kernels.hpp"
#include "models/calibration/unaligned.hpp"
#include "models/cost/grouped_gemm.hpp"

namespace codesim::cost {

std::string_view kernel_class_name(KernelClass c) {
  switch (c) {
    case KernelClass::gemm:
      return "gemm";
    case KernelClass::grouped_gemm:
      return "grouped_gemm";
    case KernelClass::attention_forward:
      return "attention_forward";
    case KernelClass::attention_backward:
      return "attention_backward";
    case KernelClass::elementwise:
      return "elementwise";
    case KernelClass::norm:
      return "norm";
    case KernelClass::quantize:
      return "quantize";
    case KernelClass::communication:
      return "communication";
    case KernelClass::memcpy:
      return "memcpy";
    case KernelClass::optimizer:
      return "optimizer";
    case KernelClass::permute:
      return "permute";
    case KernelClass::router:
      return "router";
  }
  return "";
}

std::string_view dtype_name(DType d) {
  switch (d) {
    case DType::bf16:
      return "bf16";
    case DType::fp8:
      return "fp8";
    case DType::fp32:
      return "fp32";
  }
  return "";
}

std::optional<KernelClass> kernel_class_from(std::string_view name) {
  for (auto c : {KernelClass::gemm, KernelClass::grouped_gemm, KernelClass::attention_forward,
                 KernelClass::attention_backward, KernelClass::elementwise, KernelClass::norm,
                 KernelClass::quantize, KernelClass::communication, KernelClass::memcpy,
                 KernelClass::optimizer, KernelClass::permute, KernelClass::router}) {
    if (kernel_class_name(c) == name) {
      return c;
    }
  }
  return std::nullopt;
}

std::optional<DType> dtype_from(std::string_view name) {
  for (auto d : {DType::bf16, DType::fp8, DType::fp32}) {
    if (dtype_name(d) == name) {
      return d;
    }
  }
  return std::nullopt;
}

double dtype_bytes(DType d) {
  switch (d) {
    case DType::bf16:
      return 2;
    case DType::fp8:
      return 1;
    case DType::fp32:
      return 4;
  }
  return 2;
}

CostParams default_params() {
  // Fitted by tools/calibration/fit_kernels.py to the cases of
  // models/calibration/h200/h200_kernels.json that are not held out (PyTorch on the lent H200,
  // 2026-12-01); the table with each number's error is models/calibration/README.md. Each
  // number is its fit's output (models/calibration/h200/fit_*.json), embedded at build time.
  namespace kernels = calibration::kernels;
  return CostParams{
      // GEMMs: 26 BF16 and 26 FP8 shapes (DeepSeek-V3, Llama 3 405B/70B and GPT-3 175B TP-8
      // shards, forward, input and weight gradient, decode m = 1-256). FP8 is per-tensor scaled
      // (torch._scaled_mm); DeepSeek's fine-grained scaling is the trace's (piece_model.cpp).
      .gemm_efficiency_bf16 = kernels::gemm_efficiency_bf16,
      .gemm_efficiency_fp8 = kernels::gemm_efficiency_fp8,
      .gemm_k0_bf16 = kernels::gemm_k0_bf16,
      .gemm_k0_fp8 = kernels::gemm_k0_fp8,
      // Operand-bound GEMMs: BF16's memory efficiency and split-K depth refitted with the 20
      // decode GEMMs of models/calibration/h200/decode/h200_decode.json not held out (Llama 3.1
      // 8B projections and head, m = 1-256: cuBLAS streams the weights at 0.63-0.77 of HBM
      // whatever the tile count); the FP8 kernels showed no split.
      .gemm_memory_efficiency_bf16 = kernels::gemm_memory_efficiency_bf16,
      .gemm_memory_efficiency_fp8 = kernels::gemm_memory_efficiency_fp8,
      .gemm_k_split_bf16 = kernels::gemm_k_split_bf16,
      .gemm_k_split_fp8 = kernels::gemm_k_split_fp8,
      // BF16's epilogue apart, fitted (all five BF16 terms together) with two thirds of the
      // small-K GEMMs of models/calibration/h200/h200_small_k.json too (k = 64-512, attention's
      // batched shapes, n = 64-128: their time is the main loop's or C's write, whichever is
      // longer); FP8 had no small-K GEMM timed and keeps C with its operands.
      .gemm_write_efficiency_bf16 = kernels::gemm_write_efficiency_bf16,
      .gemm_write_efficiency_fp8 = kernels::gemm_write_efficiency_fp8,
      // BF16 GEMMs with unaligned contiguous dimensions (tools/calibration/fit_unaligned.py, the
      // `gemm_bf16_unaligned` cases of models/calibration/h200/moe/h200_moe_kernels.json not held
      // out): n = 4100 (alignment 4) runs at 0.391 of the aligned model, vocabularies of 50,257
      // and 32,001 and K = 50,257 (alignment 1) at 0.148.
      .gemm_align4_factor = calibration::unaligned::gemm_align4_factor,
      .gemm_align1_factor = calibration::unaligned::gemm_align1_factor,
      // Grouped GEMMs: grouped_gemm.cpp, fitted by tools/calibration/fit_grouped.py.
      .grouped = grouped_gemm_params(),
      // Attention by FLOPs alone: the fused-attention fit (attention_cost.cpp) at head dim 128
      // and long sequences, a x 128 / (128 + d0).
      .attention_forward_efficiency = calibration::attention::forward_efficiency_d128,
      .attention_backward_efficiency = calibration::attention::forward_backward_efficiency_d128,
      // Memory-bound kernels, each from one measured kernel (bytes moved over the time less the
      // fixed cost, of the H200's 4800 GB/s): RMSNorm 4096 x 7168, SiLU then multiply (two
      // kernels), device copy (h200_gemm.json), fused AdamW. A fused FP8 cast is taken as an
      // elementwise kernel (the measured unfused one, seven PyTorch kernels, is reference only).
      .norm_efficiency = kernels::norm_efficiency,
      .elementwise_efficiency = kernels::elementwise_efficiency,
      .quantize_efficiency = kernels::elementwise_efficiency,
      .memcpy_efficiency = kernels::memcpy_efficiency,
      .optimizer_efficiency = kernels::optimizer_efficiency,
      // A tiny kernel back to back in a CUDA graph: 1.33 us.
      .launch_overhead = core::Seconds(kernels::launch_overhead_s)};
}

double memory_efficiency(KernelClass c, const CostParams& p) {
  switch (c) {
    case KernelClass::norm:
      return p.norm_efficiency;
    case KernelClass::quantize:
      return p.quantize_efficiency;
    case KernelClass::memcpy:
    case KernelClass::attention_forward:  // streaming Q, K, V (decode: the KV cache)
    case KernelClass::attention_backward:
      return p.memcpy_efficiency;
    case KernelClass::optimizer:
      return p.optimizer_efficiency;
    default:
      return p.elementwise_efficiency;
  }
}

namespace {

// Output tiles of a GEMM for a tile of tm x tn.
double tiles_of(const KernelShape& k, double tm, double tn) {
  return k.batch * std::ceil(k.m / tm) * std::ceil(k.n / tn);
}

double gemm_flops(const KernelShape& k) {
  return 2.0 * k.batch * k.m * k.n * k.k;
}

double gemm_output_bytes(const KernelShape& k) {
  return k.batch * k.m * k.n * 2.0;
}

double gemm_bytes(const KernelShape& k) {
  return k.batch * (k.m * k.k + k.k * k.n) * dtype_bytes(k.dtype) + gemm_output_bytes(k);
}

// The compute-efficiency factor of a plain BF16 GEMM's alignment. FP8 GEMMs need multiples of 16
// and run only aligned (a framework pads them); grouped GEMMs (CUTLASS) took rows per group of
// any count at full speed (h200_moe_kernels.json).
double alignment_factor(const KernelShape& k, const CostParams& p) {
  if (k.dtype != DType::bf16) {
    return 1.0;
  }
  const int a = k.alignment > 0 ? k.alignment : gemm_alignment(k.k, k.n);
  return a >= 8 ? 1.0 : (a >= 4 ? p.gemm_align4_factor : p.gemm_align1_factor);
}

KernelCost predict_gemm(const KernelShape& k, const hardware::GpuSpec& gpu, int sms,
                        const CostParams& p) {
  KernelCost c;
  c.sms = sms;
  c.flops = k.flops.value > 0 ? k.flops : core::Flops(gemm_flops(k));
  c.bytes = k.bytes.value > 0 ? k.bytes : core::Bytes(gemm_bytes(k));
  const bool fp8 = k.dtype == DType::fp8;
  const core::FlopsPerSecond peak = fp8 ? gpu.fp8_peak : gpu.bf16_peak;
  const double share = static_cast<double>(sms) / gpu.sms;
  const double k0 = fp8 ? p.gemm_k0_fp8 : p.gemm_k0_bf16;
  const double base = (fp8 ? p.gemm_efficiency_fp8 * p.fp8_compute_scale : p.gemm_efficiency_bf16) *
                      alignment_factor(k, p) * k.k / (k.k + k0);
  const double memory_efficiency =
      fp8 ? p.gemm_memory_efficiency_fp8 : p.gemm_memory_efficiency_bf16;
  const double k_split = fp8 ? p.gemm_k_split_fp8 : p.gemm_k_split_bf16;
  const double write_efficiency = fp8 ? p.gemm_write_efficiency_fp8 : p.gemm_write_efficiency_bf16;
  // The epilogue's bytes (C, BF16), where it is apart; a shape given its bytes keeps them whole.
  const core::Bytes written(write_efficiency > 0 ? std::min(c.bytes.value, gemm_output_bytes(k))
                                                 : 0.0);
  const double splits = k_split > 0 ? std::max(1.0, std::floor(k.k / k_split)) : 1.0;
  std::vector<std::pair<double, double>> shapes{{128, 128}, {128, 64}, {64, 128}};
  if (fp8 && p.gemm_fp8_narrow_tile_n > 0) {
    shapes.emplace_back(64, p.gemm_fp8_narrow_tile_n);
  }
  bool first = true;
  for (const auto& [tm, tn] : shapes) {
    const double tiles = tiles_of(k, tm, tn);
    // Split-K spreads the few tiles' work over the idle SMs, up to one wave.
    const double units = tiles * std::min(splits, std::ceil(sms / tiles));
    const double waves = std::ceil(units / sms);
    const double efficiency = base * units / (waves * sms);
    const double fill = std::min(1.0, units / sms);
    const core::Seconds compute = c.flops / (peak * share * efficiency);
    const core::Seconds memory =
        (c.bytes - written) / (gpu.hbm_bandwidth * memory_efficiency * fill);
    const core::Seconds main = std::max(compute, memory);
    const core::Seconds write = written.value > 0
                                    ? written / (gpu.hbm_bandwidth * write_efficiency * fill)
                                    : core::Seconds(0);
    const core::Seconds time = std::max(main, write) + std::min(main, write) / waves;
    if (first || time < c.time) {
      first = false;
      c.time = time;
      c.waves = waves;
      const bool compute_bound = compute >= memory && compute >= write;
      c.bound = compute_bound ? "compute" : "memory";
      c.efficiency = compute_bound ? efficiency : memory_efficiency;
    }
  }
  c.time = c.time + p.launch_overhead;
  return c;
}

}  // namespace

int gemm_alignment(double k, double n) {
  for (const int a : {8, 4, 2}) {
    if (std::fmod(k, a) == 0 && std::fmod(n, a) == 0) {
      return a;
    }
  }
  return 1;
}

KernelCost predict(const KernelShape& k, const hardware::GpuSpec& gpu, int sms,
                   const CostParams& p) {
  sms = std::clamp(sms, 1, gpu.sms);
  if (k.kind == KernelClass::grouped_gemm) {
    return predict_grouped_gemm(k, gpu, sms, p);
  }
  if (k.kind == KernelClass::gemm) {
    return predict_gemm(k, gpu, sms, p);
  }
  KernelCost c;
  c.sms = sms;
  c.flops = k.flops;
  c.bytes = k.bytes;
  core::Seconds compute(0);
  if (k.kind == KernelClass::attention_forward || k.kind == KernelClass::attention_backward) {
    c.efficiency = k.kind == KernelClass::attention_forward ? p.attention_forward_efficiency
                                                            : p.attention_backward_efficiency;
    compute = c.flops / (gpu.bf16_peak * (static_cast<double>(sms) / gpu.sms) * c.efficiency);
  }
  // Memory-bound kernels can use all of HBM even on a share of the SMs.
  const double e = k.hbm_efficiency > 0 ? k.hbm_efficiency : memory_efficiency(k.kind, p);
  core::Seconds memory = c.bytes / (gpu.hbm_bandwidth * e);
  if (k.beside_hbm.value > 0) {
    memory += c.bytes / k.beside_hbm;
  }
  if (compute.value >= memory.value && compute.value > 0) {
    c.bound = "compute";
    c.time = compute + p.launch_overhead;
  } else {
    c.bound = "memory";
    c.time = memory + p.launch_overhead * static_cast<double>(k.launches) + k.fixed;
    c.efficiency = e;
  }
  return c;
}

}  // namespace codesim::cost
