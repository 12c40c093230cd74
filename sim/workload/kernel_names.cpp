// Name patterns, most specific first. The libraries whose names are known: DeepSeek's kernels and
// DeepEP (its H800 trace), NCCL, CUTLASS 3 grouped GEMMs, cuBLAS (`nvjet_*`, `*xmma*`), cuDNN's
// fused attention (`*sdpa*fprop*` / `*bprop*` and its `cudnn::fusion::` backward helpers),
// FlashAttention, PyTorch's eager kernels (`at::native::*`) and torch.compile's Triton kernels
// (`triton_poi_*` pointwise, `triton_red_*` / `triton_per_*` reductions, `triton_tem_*` GEMM
// templates). The H200 layer traces (models/calibration/h200/moe/traces) show them all.
#include "sim/workload/kernel_names.hpp"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <string>

namespace codesim::workload {
namespace {

using C = cost::KernelClass;

struct Name {
  std::string lower;
  bool has(std::string_view s) const { return lower.find(s) != std::string::npos; }
  bool any(std::initializer_list<std::string_view> parts) const {
    return std::any_of(parts.begin(), parts.end(), [this](std::string_view s) { return has(s); });
  }
  bool starts(std::string_view s) const { return lower.rfind(s, 0) == 0; }
};

// Token movement and the router's small kernels, as PyTorch and Triton name them.
bool is_permute(const Name& n) {
  return n.any({"indexfunc", "index_elementwise_kernel", "index_select", "index_copy", "index_add",
                "gather_kernel", "scatter", "catarraybatchedcopy", "index_put"});
}
bool is_router(const Name& n) {
  return n.any({"radix_sort", "radixsort", "bitonicsort", "topk", "sortkeyvalue", "histogram",
                "bincount", "cumsum", "scan_kernel", "devicescan"});
}

// torch.compile's generated kernels: fused pointwise and reduction kernels, GEMM templates.
C triton_class(const Name& n) {
  if (n.starts("triton_tem")) {
    return C::gemm;
  }
  if (n.any({"rms_norm", "layer_norm"})) {
    return C::norm;
  }
  return is_permute(n) ? C::permute : C::elementwise;
}

}  // namespace

KernelKind classify_kernel(std::string_view raw, std::string_view category) {
  Name n{std::string(raw)};
  std::transform(n.lower.begin(), n.lower.end(), n.lower.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  const cost::DType dtype = n.any({"fp8", "e4m3"}) ? cost::DType::fp8 : cost::DType::bf16;
  if (category == "gpu_memcpy" || category == "gpu_memset") {
    return {OpKind::compute, C::memcpy, cost::DType::bf16};
  }
  if (n.any({"dpsk::ep", "deep_ep", "internode", "intranode", "nccl"})) {
    return {OpKind::collective, C::communication, cost::DType::bf16};
  }
  if (n.starts("triton_")) {
    return {OpKind::compute, triton_class(n), dtype};
  }
  if (n.any({"grouped_gemm", "m_grouped", "groupproblemshape"})) {
    if (n.any({"transpose", "utils::"})) {
      return {OpKind::compute, C::quantize, dtype};
    }
    return {OpKind::compute, C::grouped_gemm, dtype};
  }
  if (n.any({"gemm", "xmma", "nvjet"})) {
    return {OpKind::compute, C::gemm, dtype};
  }
  if (n.has("cudnn::fusion")) {  // cuDNN attention's backward helpers (dO.O, dQ, head sums)
    return {OpKind::compute, C::attention_backward, cost::DType::bf16};
  }
  if (n.any({"flash", "fmha", "attn", "sdpa"})) {
    return {OpKind::compute,
            n.any({"bwd", "backward", "bprop"}) ? C::attention_backward : C::attention_forward,
            cost::DType::bf16};
  }
  if (n.any({"layer_norm", "rms_norm", "rmsnorm", "ln_fwd", "ln_bwd", "gammabetabackward"})) {
    return {OpKind::compute, C::norm, cost::DType::bf16};
  }
  if (is_router(n)) {
    return {OpKind::compute, C::router, cost::DType::bf16};
  }
  if (is_permute(n)) {
    return {OpKind::compute, C::permute, cost::DType::bf16};
  }
  // "cast" alone: PyTorch's eager elementwise kernels are `gpu_kernel_impl_nocast`.
  if (n.any({"quant", "transpose", "fp8"}) || (n.has("cast") && !n.has("nocast"))) {
    return {OpKind::compute, C::quantize, dtype};
  }
  return {OpKind::compute, C::elementwise, cost::DType::bf16};
}

}  // namespace codesim::workload
