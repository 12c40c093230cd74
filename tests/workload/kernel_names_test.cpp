// Kernel classes from profiler names: the libraries of DeepSeek's trace and of the H200 layer
// traces (PyTorch eager, torch.compile's Triton, cuBLAS, cuDNN, CUTLASS grouped GEMMs), and what
// share of an imported H200 layer each class takes.
#include "sim/workload/kernel_names.hpp"

#include <gtest/gtest.h>

#include "sim/workload/chrome_import.hpp"
#include "sim/workload/timeline.hpp"

namespace codesim::workload {
namespace {

using C = cost::KernelClass;

// Names as the H200 traces (models/calibration/h200/moe/traces) and DeepSeek's record them,
// shortened where the rest of the name decides nothing.
TEST(KernelNames, EachLibraryByItsNames) {
  const std::pair<const char*, C> cases[] = {
      {"nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_TNT", C::gemm},
      {"_ZN7cutlass13device_kernelIN2at4cuda6detail25enable_3x_kernel_for_sm9xINS_4gemm6kernel13"
       "GemmUniversalINS5_17GroupProblemShapeIN4cute5tupleIJiiiEEEEE",
       C::grouped_gemm},
      {"cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x192",
       C::attention_forward},
      {"cudnn_generated_fort_native_sdpa_sm90_flash_bprop_wgmma_f16_knob_26_64x64x192",
       C::attention_backward},
      {"void cudnn::fusion::compute_dot_do_o_specialized<true, 128>(void const*)",
       C::attention_backward},
      {"void at::native::indexFuncLargeIndex<c10::BFloat16, long, unsigned int, 2, 2, -2, true, "
       "at::native::(anonymous namespace)::ReduceAdd>",
       C::permute},
      {"void at::native::(anonymous namespace)::CatArrayBatchedCopy<at::native::OpaqueType<2u>>",
       C::permute},
      {"void at::native::vectorized_gather_kernel<16, long>(char*, char*, long*)", C::permute},
      {"void at::native::sbtopk::gatherTopK<float, unsigned int, 2, false>", C::router},
      {"void at_cuda_detail::cub::detail::radix_sort::DeviceRadixSortOnesweepKernel<>",
       C::router},
      {"triton_red_fused__fused_rms_norm__fused_rms_norm_backward__unsafe_view_add_view_19",
       C::norm},
      {"triton_poi_fused_index_copy_index_select_20", C::permute},
      {"triton_poi_fused_cat_clone_slice_transpose_11", C::elementwise},
      {"void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::"
       "native::(anonymous namespace)::silu_kernel>",
       C::elementwise},
      {"void at::native::(anonymous namespace)::GammaBetaBackwardCUDAKernelTemplate<c10::BFloat16>",
       C::norm},
      {"void deep_gemm::fp8_gemm_kernel<7168u>(...)", C::gemm},
  };
  for (const auto& [name, expected] : cases) {
    EXPECT_EQ(cost::kernel_class_name(classify_kernel(name, "kernel").op_class),
              cost::kernel_class_name(expected))
        << name;
  }
}

// One forward + backward of a DeepSeek-V3-dims MoE layer in eager PyTorch on the H200 (EP64's
// 4 local experts, 4096 tokens; models/calibration/h200/moe/README.md). Its GPU time by class,
// summed from the trace's own durations: GEMMs and grouped GEMMs about half, token permutes about
// a fifth, attention 13%; the router's kernels and copies under 2% each.
TEST(KernelNames, AnEagerMoeLayerByClass) {
  const StepTrace t = import_chrome_trace_file(
      CODESIM_SOURCE_DIR "/models/calibration/h200/moe/traces/v3_ep64_eager.json");
  const TimelineSummary s = summarize(t, measured_timeline(t));
  double total = 0;
  for (const auto& [name, group] : s.classes) {
    total += group.time_us;
  }
  auto share = [&](const char* name) {
    return s.classes.contains(name) ? s.classes.at(name).time_us / total : 0.0;
  };
  EXPECT_NEAR(share("gemm") + share("grouped_gemm"), 0.50, 0.03);
  EXPECT_NEAR(share("permute"), 0.21, 0.03);
  EXPECT_NEAR(share("attention_forward") + share("attention_backward"), 0.135, 0.02);
  EXPECT_LT(share("router"), 0.02);
  EXPECT_LT(share("memcpy"), 0.02);
}

}  // namespace
}  // namespace codesim::workload
