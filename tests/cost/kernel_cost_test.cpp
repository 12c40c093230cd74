// The kernel cost model: its formulas, and its predictions against the H200 measurements.
#include "models/cost/kernel_cost.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "models/hardware/catalog.hpp"

namespace codesim::cost {
namespace {

const hardware::GpuSpec kH200 = hardware::find_preset("h200")->gpu;

TEST(KernelCost, MemoryBoundKernelsMoveBytesAtTheHbmRate) {
  // 1 GB read + written by an elementwise kernel: bytes / (4.8 TB/s x efficiency) + launch.
  const CostParams p = default_params();
  const KernelCost c =
      predict({.kind = KernelClass::elementwise, .bytes = core::Bytes(1e9)}, kH200, 132, p);
  EXPECT_EQ(c.bound, "memory");
  EXPECT_DOUBLE_EQ(c.time.value, 1e9 / (4.8e12 * p.memory_efficiency) + p.launch_overhead.value);
}

TEST(KernelCost, GemmFollowsTheRooflineWithWaves) {
  // 8192^3 BF16: 64 x 64 = 4096 tiles of 128^2 -> 32 waves of 132 SMs (4224 slots).
  const CostParams p = default_params();
  const KernelCost c =
      predict({.kind = KernelClass::gemm, .m = 8192, .n = 8192, .k = 8192}, kH200, 132, p);
  const double wave_efficiency = 4096.0 / (32 * 132);
  const double efficiency =
      p.gemm_efficiency_bf16 * wave_efficiency * 8192 / (8192 + p.gemm_k0_bf16);
  EXPECT_EQ(c.bound, "compute");
  EXPECT_EQ(c.waves, 32);
  EXPECT_NEAR(c.efficiency, efficiency, 1e-12);
  EXPECT_NEAR(c.time.value,
              2.0 * 8192 * 8192 * 8192 / (989e12 * efficiency) + p.launch_overhead.value, 1e-12);
}

TEST(KernelCost, OneTileMoreThanAWaveCostsAWholeWave) {
  // 132 tiles fill one wave; 133 need two.
  const KernelCost full =
      predict({.kind = KernelClass::gemm, .m = 128 * 12, .n = 128 * 11, .k = 4096}, kH200);
  const KernelCost over =
      predict({.kind = KernelClass::gemm, .m = 128 * 133, .n = 128, .k = 4096}, kH200);
  EXPECT_EQ(full.waves, 1);
  EXPECT_EQ(over.waves, 2);
  EXPECT_GT(over.time.value / full.time.value, 1.9);
}

TEST(KernelCost, SmsHeldByCommunicationSlowComputeDown) {
  // DeepSeek-V3 training: 20 of 132 SMs for communication, 112 left to a large GEMM.
  const KernelShape big{
      .kind = KernelClass::gemm, .dtype = DType::fp8, .m = 16384, .n = 16384, .k = 7168};
  const double all = predict(big, kH200, 132, default_params()).time.value;
  const double rest = predict(big, kH200, 112, default_params()).time.value;
  EXPECT_NEAR(rest / all, 132.0 / 112.0, 0.03);
}

TEST(KernelCost, H200MeasurementsWithinFifteenPercent) {
  // models/calibration/h200/h200_gemm.json: DeepSeek-V3 GEMM shapes timed on the lent H200
  // (tools/calibration/h200_gemm.py). The GEMM parameters were fitted to this file
  // (tools/calibration/fit_gemm.py); this test keeps the model and the data together.
  std::ifstream in(CODESIM_SOURCE_DIR "/models/calibration/h200/h200_gemm.json");
  ASSERT_TRUE(in.good());
  const auto data = nlohmann::json::parse(in);
  EXPECT_EQ(data["gpu"], "NVIDIA H200");
  std::vector<double> errors;
  for (const auto& g : data["gemms"]) {
    const KernelShape shape{
        .kind = g["batch"].get<int>() > 1 ? KernelClass::grouped_gemm : KernelClass::gemm,
        .dtype = g["dtype"] == "fp8" ? DType::fp8 : DType::bf16,
        .m = g["m"].get<double>(),
        .n = g["n"].get<double>(),
        .k = g["k"].get<double>(),
        .batch = g["batch"].get<double>()};
    const double predicted = predict(shape, kH200).time.value * 1e6;
    const double measured = g["time_us"].get<double>();
    errors.push_back(std::fabs(predicted / measured - 1.0));
    std::cout << g["name"].get<std::string>() << " " << g["dtype"].get<std::string>()
              << ": predicted " << predicted << " us, measured " << measured << " us\n";
  }
  std::sort(errors.begin(), errors.end());
  const double median = (errors[errors.size() / 2] + errors[(errors.size() - 1) / 2]) / 2;
  std::cout << "median absolute error " << 100 * median << "%\n";
  EXPECT_LT(median, 0.15);
  const double copy_rate = data["copy"]["read_plus_write_GBps"].get<double>() * 1e9;
  EXPECT_NEAR(copy_rate / 4.8e12, default_params().memory_efficiency, 0.01);
}

}  // namespace
}  // namespace codesim::cost
