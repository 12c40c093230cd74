// Name patterns, most specific first.
#include "sim/workload/kernel_names.hpp"

#include <algorithm>
#include <cctype>
#include <string>

namespace codesim::workload {

KernelKind classify_kernel(std::string_view raw, std::string_view category) {
  std::string name(raw);
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  auto has = [&](std::string_view s) { return name.find(s) != std::string::npos; };
  using C = cost::KernelClass;
  const cost::DType dtype = has("fp8") || has("e4m3") ? cost::DType::fp8 : cost::DType::bf16;
  if (category == "gpu_memcpy") {
    return {OpKind::compute, C::memcpy, cost::DType::bf16};
  }
  if (category == "gpu_memset") {
    return {OpKind::compute, C::memcpy, cost::DType::bf16};
  }
  if (has("dpsk::ep") || has("deep_ep") || has("internode") || has("intranode") || has("nccl")) {
    return {OpKind::collective, C::communication, cost::DType::bf16};
  }
  if (has("grouped_gemm") || has("m_grouped")) {
    if (has("transpose") || has("utils::")) {
      return {OpKind::compute, C::quantize, dtype};
    }
    return {OpKind::compute, C::grouped_gemm, dtype};
  }
  if (has("gemm") || has("xmma")) {
    return {OpKind::compute, C::gemm, dtype};
  }
  if (has("flash") || has("fmha") || has("attn")) {
    return {OpKind::compute,
            has("bwd") || has("backward") ? C::attention_backward : C::attention_forward,
            cost::DType::bf16};
  }
  if (has("layer_norm") || has("rms_norm") || has("rmsnorm") || has("ln_fwd") || has("ln_bwd")) {
    return {OpKind::compute, C::norm, cost::DType::bf16};
  }
  if (has("cast") || has("quant") || has("transpose") || has("fp8")) {
    return {OpKind::compute, C::quantize, dtype};
  }
  return {OpKind::compute, C::elementwise, cost::DType::bf16};
}

}  // namespace codesim::workload
