// The kernel cost model and its fitted defaults.
#include "models/cost/kernel_cost.hpp"

#include <algorithm>
#include <cmath>

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
                 KernelClass::quantize, KernelClass::communication, KernelClass::memcpy}) {
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
  return CostParams{
      // Fitted to the 14 GEMM shapes of models/calibration/h200/h200_gemm.json (DeepSeek-V3
      // training shapes timed on an H200, 2026-11-29) by tools/calibration/fit_gemm.py: median
      // error 2.1% (BF16) and 2.9% (FP8), 3.8% and 9.3% leaving each shape out of its own fit.
      .gemm_efficiency_bf16 = 0.715,
      .gemm_efficiency_fp8 = 0.670,
      .gemm_k0_bf16 = 160,
      .gemm_k0_fp8 = 352,
      .gemm_tile = 128,
      // Assumed until fitted to a trace's grouped GEMMs (DeepEP-era DeepGEMM kernels): 1.
      .grouped_gemm_factor = 1.0,
      // Assumed: FlashAttention-3-class kernels reach about 60% (forward) and 45% (backward) of
      // the BF16 peak on Hopper.
      .attention_forward_efficiency = 0.60,
      .attention_backward_efficiency = 0.45,
      // Fitted to the 4 GB device copy of models/calibration/h200/h200_gemm.json: 4232 GB/s
      // (read + write) of the H200's 4800 GB/s.
      .memory_efficiency = 0.88,
      // Assumed: a few microseconds between dependent kernels on one stream.
      .launch_overhead = core::Seconds(2e-6)};
}

KernelCost predict(const KernelShape& k, const hardware::GpuSpec& gpu, int sms,
                   const CostParams& p) {
  KernelCost c;
  sms = std::clamp(sms, 1, gpu.sms);
  c.sms = sms;
  const double share = static_cast<double>(sms) / gpu.sms;
  const core::FlopsPerSecond peak = k.dtype == DType::fp8 ? gpu.fp8_peak : gpu.bf16_peak;
  c.flops = k.flops;
  c.bytes = k.bytes;
  core::Seconds compute(0);
  double compute_efficiency = 0;
  switch (k.kind) {
    case KernelClass::gemm:
    case KernelClass::grouped_gemm: {
      if (c.flops.value == 0) {
        c.flops = core::Flops(2.0 * k.batch * k.m * k.n * k.k);
      }
      if (c.bytes.value == 0) {
        c.bytes = core::Bytes(k.batch *
                              ((k.m * k.k + k.k * k.n) * dtype_bytes(k.dtype) + k.m * k.n * 2.0));
      }
      const double tiles = k.batch * std::ceil(k.m / p.gemm_tile) * std::ceil(k.n / p.gemm_tile);
      c.waves = std::ceil(tiles / sms);
      const double wave_efficiency = tiles / (c.waves * sms);
      const bool fp8 = k.dtype == DType::fp8;
      const double k0 = fp8 ? p.gemm_k0_fp8 : p.gemm_k0_bf16;
      double efficiency = (fp8 ? p.gemm_efficiency_fp8 : p.gemm_efficiency_bf16) * wave_efficiency *
                          k.k / (k.k + k0);
      if (k.kind == KernelClass::grouped_gemm) {
        efficiency *= p.grouped_gemm_factor;
      }
      compute = c.flops / (peak * share * efficiency);
      compute_efficiency = efficiency;
      break;
    }
    case KernelClass::attention_forward:
    case KernelClass::attention_backward: {
      const double e = k.kind == KernelClass::attention_forward ? p.attention_forward_efficiency
                                                                : p.attention_backward_efficiency;
      compute = c.flops / (gpu.bf16_peak * share * e);
      compute_efficiency = e;
      break;
    }
    default:
      break;
  }
  // Memory-bound kernels can use all of HBM even on a share of the SMs.
  const core::Seconds memory = c.bytes / (gpu.hbm_bandwidth * p.memory_efficiency);
  if (compute.value >= memory.value && compute.value > 0) {
    c.bound = "compute";
    c.time = compute + p.launch_overhead;
    c.efficiency = compute_efficiency;
  } else {
    c.bound = "memory";
    c.time = memory + p.launch_overhead;
    c.efficiency = p.memory_efficiency;
  }
  return c;
}

}  // namespace codesim::cost
