// AdamW's update (sim/workload/optimizer_update.hpp): bytes and passes per parameter for each
// implementation and precision, and its time against the H200's AdamW runs
// (models/calibration/h200/steps/h200_step_extras.json).
#include "sim/workload/optimizer_update.hpp"

#include <gtest/gtest.h>

#include "models/hardware/catalog.hpp"

namespace codesim::workload {
namespace {

const hardware::GpuSpec kAdamGpu = hardware::find_preset("h200")->gpu;

constexpr TrainingPrecision kDeepSeek{};  // FP32 master weights and gradients, BF16 moments
constexpr TrainingPrecision kBf16{.master_weights = false, .gradient_bytes = 2, .moment_bytes = 2};

TEST(OptimizerUpdate, BytesAndPassesPerParameter) {
  // Fused, DeepSeek's recipe: read master 4, gradient 4, moments 2 + 2; write master 4, moments
  // 2 + 2 and the BF16 weights 2 = 22 bytes in one pass.
  EXPECT_DOUBLE_EQ(adamw_traffic(OptimizerKernels::fused, kDeepSeek).bytes_per_param, 22.0);
  EXPECT_EQ(adamw_traffic(OptimizerKernels::fused, kDeepSeek).passes, 1);
  // Fused, all BF16 without a master copy: read w, g, m, v, write w, m, v: 7 x 2 = 14.
  EXPECT_DOUBLE_EQ(adamw_traffic(OptimizerKernels::fused, kBf16).bytes_per_param, 14.0);
  // Foreach, all BF16: 4w + 2g + 14s = 20 tensor passes of 2 bytes, in 8 kernels.
  EXPECT_DOUBLE_EQ(adamw_traffic(OptimizerKernels::foreach, kBf16).bytes_per_param, 40.0);
  EXPECT_EQ(adamw_traffic(OptimizerKernels::foreach, kBf16).passes, 8);
  // Foreach over FP32 masters (4 x 4 + 2 x 4 + 14 x 2 = 52) and the cast to the BF16 weights
  // (4 in, 2 out): 58 bytes in 9 kernels.
  EXPECT_DOUBLE_EQ(adamw_traffic(OptimizerKernels::foreach, kDeepSeek).bytes_per_param, 58.0);
  EXPECT_EQ(adamw_traffic(OptimizerKernels::foreach, kDeepSeek).passes, 9);
}

TEST(OptimizerUpdate, ReproducesTheH200Runs) {
  // 469,762,048 BF16 parameters (8 tensors of 4096 x 14336): foreach measured 5834 us of
  // kernels, fused 2375 us; the model is params x (bytes / (e x 4.8 TB/s) + passes x c) + the
  // 1.33 us every kernel pays (fitted to these two and the FP32 runs: within 0.1%). The expert
  // layout (300 tensors of 768 x 2048, 471,859,200 parameters) was held out: foreach 5896 us,
  // fused 2368 us, within 1%.
  const double dense = 469762048;
  const double experts = 471859200;
  auto us = [&](OptimizerKernels k, double params) {
    return cost::predict(adamw_update(k, kBf16, params, kAdamGpu), kAdamGpu).time.value * 1e6;
  };
  EXPECT_NEAR(us(OptimizerKernels::foreach, dense) / 5833.88, 1.0, 0.001);
  EXPECT_NEAR(us(OptimizerKernels::fused, dense) / 2375.06, 1.0, 0.001);
  EXPECT_NEAR(us(OptimizerKernels::foreach, experts) / 5895.0, 1.0, 0.01);
  EXPECT_NEAR(us(OptimizerKernels::fused, experts) / 2368.0, 1.0, 0.01);
}

TEST(OptimizerUpdate, PerParameterCostScalesWithTheSms) {
  // The arithmetic per parameter runs on the SMs: an A100's 108 take 132/108 of the H200's.
  const hardware::GpuSpec a100 = hardware::find_preset("a100")->gpu;
  const auto h = adamw_update(OptimizerKernels::fused, kDeepSeek, 1e9, kAdamGpu);
  const auto a = adamw_update(OptimizerKernels::fused, kDeepSeek, 1e9, a100);
  EXPECT_NEAR(a.fixed.value / h.fixed.value, 132.0 / 108.0, 1e-12);
  EXPECT_DOUBLE_EQ(a.bytes.value, 22e9);
}

}  // namespace
}  // namespace codesim::workload
