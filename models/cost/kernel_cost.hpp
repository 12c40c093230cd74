// Time of one kernel on a GPU: an SM roofline (tensor throughput of the SMs the kernel may use vs
// HBM bandwidth) with wave quantization, per-class efficiencies and launch overhead. SMs held by
// communication kernels are taken away from the compute kernels that overlap them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

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
  memcpy
};
enum class DType { bf16, fp8, fp32 };

std::string_view kernel_class_name(KernelClass c);
std::string_view dtype_name(DType d);
std::optional<KernelClass> kernel_class_from(std::string_view name);
std::optional<DType> dtype_from(std::string_view name);
double dtype_bytes(DType d);

// What a kernel does. GEMMs give m, n, k and batch (C[m,n] = A[m,k] B[k,n], `batch` times);
// other classes give flops and bytes.
struct KernelShape {
  KernelClass kind = KernelClass::gemm;
  DType dtype = DType::bf16;
  double m = 0, n = 0, k = 0, batch = 1;
  core::Flops flops;  // derived for GEMMs when left 0
  core::Bytes bytes;  // HBM traffic; derived for GEMMs when left 0
};

// The model's parameters. Defaults and the data each was fitted to are in kernel_cost.cpp.
struct CostParams {
  // GEMMs: fraction of the dtype's dense peak a full wave reaches, and a per-tile fixed cost
  // expressed as extra K elements (prologue, epilogue; for FP8 also the FP32 promotions).
  double gemm_efficiency_bf16;
  double gemm_efficiency_fp8;
  double gemm_k0_bf16;
  double gemm_k0_fp8;
  double gemm_tile = 128;  // output tile edge: waves = ceil(tiles / SMs)
  // Grouped expert GEMMs run below plain ones (uneven groups, index lookups).
  double grouped_gemm_factor;
  // Attention: fraction of the BF16 peak.
  double attention_forward_efficiency;
  double attention_backward_efficiency;
  // Memory-bound kernels: fraction of HBM bandwidth.
  double memory_efficiency;
  core::Seconds launch_overhead;
};

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
inline KernelCost predict(const KernelShape& k, const hardware::GpuSpec& gpu) {
  return predict(k, gpu, gpu.sms, default_params());
}

}  // namespace codesim::cost
