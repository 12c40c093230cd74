// Kernel class from a profiler kernel name (CUTLASS, DeepGEMM-style, FlashAttention, DeepEP,
// PyTorch elementwise kernels, ...).
#pragma once

#include <string_view>

#include "sim/workload/step_trace.hpp"

namespace codesim::workload {

struct KernelKind {
  OpKind kind = OpKind::compute;
  cost::KernelClass op_class = cost::KernelClass::elementwise;
  cost::DType dtype = cost::DType::bf16;
};

// `category` is the trace event's cat ("kernel", "gpu_memcpy", "gpu_memset").
KernelKind classify_kernel(std::string_view name, std::string_view category);

}  // namespace codesim::workload
