// Grouped expert GEMMs: the configuration each case runs, the persistent tile schedule, and the
// predictions against the H200 runs the fit held out.
#include "models/cost/grouped_gemm.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "models/hardware/catalog.hpp"
#include "tests/support/data_files.hpp"
#include "tests/support/errors.hpp"

namespace codesim::cost {
namespace {

using testing::held_out_summary;

const hardware::GpuSpec kHopper = hardware::find_preset("h200")->gpu;

// One tile's main loop: (compute^p + load^p)^(1/p) on a unit of `sms` SMs.
double main_loop(const GroupedTerms& t, double peak, double tm, double tn, double mt, double k,
                 double element, double sms) {
  const double compute = 2 * tm * tn * k / (peak / 132 * sms * t.efficiency);
  const double load = (tm + tn / mt) * k * element / (t.operand_rate.value * sms);
  return std::pow(std::pow(compute, t.blend) + std::pow(load, t.blend), 1 / t.blend);
}

TEST(GroupedGemm, CooperativeTilesAreDealtRoundRobin) {
  // BF16 forward, 4 experts x 8192 rows, n = 4096, k = 7168: cooperative, a 256 x 256 tile per
  // cluster of 2 SMs, 66 clusters. 32 x 16 = 512 tiles per expert, 2048 = 31 x 66 + 2: the
  // busiest cluster runs 32. tile = main + epilogue (256 x 256 x 2 bytes at the write rate);
  // time = max(32 tiles, bytes / (HBM x e_mem)) + setup + fixed cost.
  const CostParams p = default_params();
  const GroupedDtypeTerms& d = p.grouped.bf16;
  const KernelShape shape{
      .kind = KernelClass::grouped_gemm, .n = 4096, .k = 7168, .group_m = {8192, 8192, 8192, 8192}};
  const KernelCost c = predict(shape, kHopper, 132, p);
  const double tile = main_loop(d.coop, 989e12, 256, 256, 32, 7168, 2, 2) +
                      256.0 * 256 * 2 / (d.coop.write_rate.value * 2);
  const double bytes = 4 * ((8192.0 + 4096) * 7168 * 2 + 8192.0 * 4096 * 2);
  const double expected = std::max(32 * tile, bytes / (4.8e12 * d.memory_efficiency));
  EXPECT_DOUBLE_EQ(c.flops.value, 2.0 * 4 * 8192 * 4096 * 7168);
  EXPECT_DOUBLE_EQ(c.waves, 2048.0 / 66);
  EXPECT_NEAR(c.time.value, expected + d.setup.value + p.launch_overhead.value, 1e-12);
}

TEST(GroupedGemm, SmallGroupsRunPingPongAndOverlapTheirEpilogues) {
  // 8 experts x 100 rows (<= 128): ping-pong 64 x 128 tiles, one SM each, 132 SMs. 2 x 32 = 64
  // tiles per expert (mt = 2 share the weight panel), 512 = 3 x 132 + 116: the busiest SM runs
  // 4, each max(main, epilogue), and one epilogue drains at the end.
  const CostParams p = default_params();
  const GroupedDtypeTerms& d = p.grouped.bf16;
  const KernelShape shape{.kind = KernelClass::grouped_gemm,
                          .n = 4096,
                          .k = 7168,
                          .group_m = std::vector<double>(8, 100)};
  const KernelCost c = predict(shape, kHopper, 132, p);
  const double epilogue = 64.0 * 128 * 2 / d.ping.write_rate.value;
  const double tile = std::max(main_loop(d.ping, 989e12, 64, 128, 2, 7168, 2, 1), epilogue);
  const double bytes = 8 * ((100.0 + 4096) * 7168 * 2 + 100.0 * 4096 * 2);
  const double expected = std::max(4 * tile + epilogue, bytes / (4.8e12 * d.memory_efficiency));
  EXPECT_DOUBLE_EQ(c.waves, 512.0 / 132);
  EXPECT_NEAR(c.time.value, expected + d.setup.value + p.launch_overhead.value, 1e-12);
}

TEST(GroupedGemm, WeightGradientsSumEachExpertsOwnRows) {
  // out x in per expert, K = its rows: the FLOPs count each expert's rows, and a weight
  // gradient runs cooperative however few rows (here 4096 x 7168 per expert: 16 x 28 tiles of
  // 256 x 256, 2 experts = 896 tiles over 66 clusters).
  const KernelShape shape{
      .kind = KernelClass::grouped_gemm, .m = 4096, .n = 7168, .group_k = {64, 3000}};
  const KernelCost c = predict(shape, kHopper, 132, default_params());
  EXPECT_DOUBLE_EQ(c.flops.value, 2.0 * 4096 * 7168 * (64 + 3000));
  EXPECT_DOUBLE_EQ(c.waves, 896.0 / 66);
  // An expert with no rows adds nothing.
  KernelShape with_empty = shape;
  with_empty.group_k.push_back(0);
  EXPECT_DOUBLE_EQ(predict(with_empty, kHopper, 132, default_params()).time.value, c.time.value);
}

TEST(GroupedGemm, Fp8RunsOnItsGridOf116SmsAndLosesClustersToCommunication) {
  // FP8 forward, 8 x 4096 rows, n = 4096, k = 7168 (all three >= 2048): 256 x 128 per cluster,
  // 16 x 32 = 512 tiles per expert; 58 clusters on 132 SMs (116 / 2), 49 with 20 SMs held by
  // communication (floor(112 x 116 / 132 / 2)).
  const KernelShape shape{.kind = KernelClass::grouped_gemm,
                          .dtype = DType::fp8,
                          .n = 4096,
                          .k = 7168,
                          .group_m = std::vector<double>(8, 4096)};
  EXPECT_DOUBLE_EQ(predict(shape, kHopper, 132, default_params()).waves, 4096.0 / 58);
  EXPECT_DOUBLE_EQ(predict(shape, kHopper, 112, default_params()).waves, 4096.0 / 49);
  // A software stack's FP8 scale slows the compute-bound kernel down.
  CostParams slower = default_params();
  slower.fp8_grouped_compute_scale = 0.5;
  EXPECT_GT(predict(shape, kHopper, 132, slower).time.value,
            1.5 * predict(shape, kHopper, 132, default_params()).time.value);
}

TEST(GroupedGemm, Fp8CountsTilesByItsTwoByTwoClusters) {
  // FP8 weight gradient on the wide tile: 8 experts, N x K = 2048 x 768 (Qwen3-30B-A3B's down
  // projection), each expert's rows the K. 256 x 256 per pair of SMs, 58 pairs: 8 M tiles x
  // 3 N tiles, the N tiles counted in pairs (the 2 x 2 cluster) = 8 x 4 = 32 per expert, 256
  // in all. 128 rows span two 64-wide k-tiles; 64 rows span one, and an odd count of k-tiles
  // adds odd_k_tiles to each of the busiest pair's 5 tiles (256 = 4 x 58 + 24) beyond the
  // shorter main loop.
  const CostParams p = default_params();
  const GroupedTerms& t = p.grouped.fp8.wide_wgrad;
  KernelShape shape{.kind = KernelClass::grouped_gemm,
                    .dtype = DType::fp8,
                    .m = 2048,
                    .n = 768,
                    .group_k = std::vector<double>(8, 128)};
  const KernelCost even = predict(shape, kHopper, 132, p);
  EXPECT_DOUBLE_EQ(even.waves, 256.0 / 58);
  shape.group_k.assign(8, 64);
  const KernelCost odd = predict(shape, kHopper, 132, p);
  const double shorter = 5 * (main_loop(t, 1979e12, 256, 256, 8, 128, 1, 2) -
                              main_loop(t, 1979e12, 256, 256, 8, 64, 1, 2));
  EXPECT_NEAR(odd.time.value - even.time.value, 5 * t.odd_k_tiles.value - shorter, 1e-12);
  EXPECT_GT(odd.time.value, even.time.value);
}

// A measured case of h200_moe_kernels.json as the simulator lists it (piece_kernels.cpp):
// forward rows x N x K, data gradient rows x K x N, weight gradient N x K over each expert's
// rows.
KernelShape shape_of(const nlohmann::json& c) {
  const double k_fwd = c["k_fwd"].get<double>();
  const double n_fwd = c["n_fwd"].get<double>();
  const auto rows = c["tokens_per_expert"].get<std::vector<double>>();
  const std::string pass = c["pass"];
  KernelShape s{.kind = KernelClass::grouped_gemm,
                .dtype = c["dtype"] == "fp8" ? DType::fp8 : DType::bf16};
  if (pass == "wgrad") {
    s.m = n_fwd;
    s.n = k_fwd;
    s.group_k = rows;
  } else {
    s.n = pass == "fwd" ? n_fwd : k_fwd;
    s.k = pass == "fwd" ? k_fwd : n_fwd;
    s.group_m = rows;
  }
  return s;
}

TEST(GroupedGemm, HeldOutH200CasesWithinTheTargets) {
  // models/calibration/h200/moe/h200_moe_kernels.json: 188 grouped GEMMs (BF16 torch._grouped_mm,
  // FP8 torch._scaled_grouped_mm with row-wise scales; forward, data and weight gradients; 4-256
  // experts, 12-14,352 rows each, even and Zipf-skewed), every third held out of
  // tools/calibration/fit_grouped.py's fit. On the held-out third, per dtype: median error
  // <= 8%, worst <= 25% (issue 33's targets; fit_grouped.py prints the same figures: BF16
  // 5.1% and 22.9%, FP8 5.5% and 21.3%).
  const auto data = testing::calibration_data("h200/moe/h200_moe_kernels.json");
  std::map<std::string, std::vector<double>> errors;
  for (const auto& c : data["cases"]) {
    const std::string cls = c["class"];
    if (!c["held_out"].get<bool>() || cls.rfind("grouped_gemm", 0) != 0) {
      continue;
    }
    const double predicted = predict(shape_of(c), kHopper).time.value * 1e6;
    const double measured = c["time_us"].get<double>();
    errors[c["dtype"]].push_back(std::fabs(predicted / measured - 1.0));
    std::cout << c["name"].get<std::string>() << ": predicted " << predicted << " us, measured "
              << measured << " us\n";
  }
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors["bf16"].size(), 35u);
  EXPECT_EQ(errors["fp8"].size(), 27u);
  for (const auto& [dtype, e] : errors) {
    const auto [median, worst] = held_out_summary(dtype, e);
    EXPECT_LE(median, 0.08) << dtype;
    EXPECT_LE(worst, 0.25) << dtype;
  }
}

}  // namespace
}  // namespace codesim::cost
