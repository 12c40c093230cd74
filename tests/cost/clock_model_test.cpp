// The power governor (models/cost/clock_model.hpp) on the H200's fitted power model, against the
// H200's power and clock measurements (models/calibration/h200/power): the fitted cases it must
// reproduce, and cases no constant was fitted to.
#include "models/cost/clock_model.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "models/hardware/catalog.hpp"
#include "tests/support/data_files.hpp"

namespace codesim::cost {
namespace {

using hardware::PowerActivity;

const hardware::GpuSpec kGovernedGpu = hardware::find_preset("h200")->gpu;

hardware::PowerSpec h200() {
  return kGovernedGpu.power;
}

// The measured GEMMs' own HBM bytes per second (8192^3: A and B in, C out; FP8 in, BF16 out, at
// their times flat out at the top clock), priced beside their FLOPs (Work::add_traffic).
double gemm_traffic_rate(PowerActivity a) {
  if (a == PowerActivity::tensor_bf16) {
    return 3 * 8192.0 * 8192 * 2 / 1395.1e-6;
  }
  return a == PowerActivity::tensor_fp8 ? 8192.0 * 8192 * 4 / 753.5e-6 : 0;
}

// A kernel of `us` microseconds at the top clock running at its kind's measured rate (a GEMM
// moving the measured GEMM's bytes).
Work flat_out(PowerActivity a, double us, const hardware::PowerSpec& = {}) {
  Work w;
  const core::Seconds t(us * 1e-6);
  w.add(a, t, t.value * reference_rate(a, kGovernedGpu), kGovernedGpu);
  w.add_traffic(t, t.value * gemm_traffic_rate(a), kGovernedGpu);
  return w;
}

nlohmann::json load(const std::string& name) {
  return testing::calibration_data("h200/power/" + name);
}

// Flat out (duty 1), the governor's clock and the kernel's slowdown are the measured ones:
// BF16 GEMM 8192^3 at 1470 MHz x1.200, FP8 at 1380 MHz x1.176 (h200_clock.json, duty 0.96-0.98).
// FP8's is the loosest fit: the model gives 1338 MHz and x1.229.
TEST(ClockModel, GemmsFlatOutSettleAtTheMeasuredClock) {
  const auto p = h200();
  const Governed bf16 = govern(flat_out(PowerActivity::tensor_bf16, 1395.1, p), {}, p);
  EXPECT_TRUE(bf16.power_bound);
  EXPECT_NEAR(bf16.ratio * p.max_clock_mhz, 1470, 30);
  EXPECT_NEAR(bf16.busy.value / 1395.1e-6, 1.200, 0.02);
  EXPECT_NEAR(bf16.power_w, 700, 1e-6);
  const Governed fp8 = govern(flat_out(PowerActivity::tensor_fp8, 753.5, p), {}, p);
  EXPECT_NEAR(fp8.ratio * p.max_clock_mhz, 1380, 50);
  EXPECT_NEAR(fp8.busy.value / 753.5e-6, 1.176, 0.06);
}

// Not fitted: the same GEMM in bursts of ten (13.95 ms) between one-thread spins of 2 ms held
// 1590 MHz and ran x1.11; between spins of 10 ms it kept ~1905 MHz at 608 W
// (h200_clock.json "gaps"); a GEMM then a 1 GiB copy in one graph settled at 1650 MHz, x1.045
// (h200_power.json); SiLU x mul alone at 1815 MHz, its time unchanged.
TEST(ClockModel, HeldOutMixesAndGaps) {
  const auto p = h200();
  const nlohmann::json clock = load("h200_clock.json");
  const auto& gap2 = clock["gaps"][0];
  ASSERT_EQ(gap2["gap_ms"], 2);
  const Work burst = flat_out(PowerActivity::tensor_bf16, 10 * 1395.1, p);
  const Governed g2 = govern(burst, core::Seconds(2e-3), p);
  EXPECT_NEAR(g2.ratio * p.max_clock_mhz, gap2["nvml_sm_mhz"].get<double>(), 40);
  EXPECT_NEAR(g2.busy.value / (10 * 1395.1e-6),
              gap2["by_position"][5]["kernel_us"].get<double>() / 1395.1, 0.02);
  const auto& gap10 = clock["gaps"][1];
  const Governed g10 = govern(burst, core::Seconds(10e-3), p);
  EXPECT_FALSE(g10.power_bound);
  EXPECT_NEAR(g10.power_w, gap10["nvml_power_w"].get<double>(), 0.03 * 608);

  Work mix = flat_out(PowerActivity::tensor_bf16, 1395.1, p);
  mix += flat_out(PowerActivity::copy, 780, p);
  const Governed m = govern(mix, {}, p);
  EXPECT_NEAR(m.ratio * p.max_clock_mhz, 1650, 40);
  EXPECT_NEAR(m.busy.value / (1395.1e-6 + 780e-6), 1.045, 0.015);

  const Governed silu = govern(flat_out(PowerActivity::elementwise, 1000, p), {}, p);
  EXPECT_NEAR(silu.ratio * p.max_clock_mhz, 1815, 60);
  EXPECT_DOUBLE_EQ(silu.busy.value, 1e-3);
}

// Power = awake + sum dynamic x work / time at the top clock: RMSNorm flat out draws
// 122.8 + 538.6 = 661.4 W, under the cap, so it keeps the top clock.
TEST(ClockModel, UnderTheLimitTheTopClockAndItsPower) {
  const auto p = h200();
  const Governed g = govern(flat_out(PowerActivity::norm, 500, p), {}, p);
  EXPECT_FALSE(g.power_bound);
  EXPECT_DOUBLE_EQ(g.ratio, 1);
  EXPECT_NEAR(g.power_w, 122.8 + 538.6, 1e-9);
  // Half the rate draws half the dynamic power: energy goes with the work done.
  Work half;
  half.add(PowerActivity::norm, core::Seconds(500e-6),
           250e-6 * reference_rate(PowerActivity::norm, kGovernedGpu), kGovernedGpu);
  EXPECT_NEAR(govern(half, {}, p).power_w, 122.8 + 538.6 / 2, 1e-9);
}

// A lower limit, a lower clock; a limit under what the floor clock draws stops at the floor.
TEST(ClockModel, LowerLimitsLowerClocksDownToTheFloor) {
  auto p = h200();
  const Work w = flat_out(PowerActivity::tensor_bf16, 1000, p);
  double last = 2;
  for (const double limit : {700.0, 600.0, 500.0}) {
    p.limit_w = limit;
    const Governed g = govern(w, {}, p);
    EXPECT_LT(g.ratio, last) << limit;
    EXPECT_NEAR(g.power_w, limit, 1e-6) << limit;
    last = g.ratio;
  }
  p.limit_w = 150;
  const Governed floor = govern(w, {}, p);
  EXPECT_DOUBLE_EQ(floor.ratio, p.min_clock_mhz / p.max_clock_mhz);
  EXPECT_GT(floor.power_w, 150);
  p.limit_w = 0;  // no power model: the top clock
  EXPECT_DOUBLE_EQ(govern(w, {}, p).ratio, 1);
}

// The H100's flat-out runs (h100/power/h100_power.json and, another sitting, the BF16 GEMMs of
// one 8192 x 8192 output over K = 256-8192 in gemm_bytes_power.json: each kernel replayed back
// to back for 15-20 s at the 700 W cap against the same kernel cold), each priced as a step
// prices it: its FLOPs (or bytes) over its cold time, a GEMM's and attention's HBM bytes beside.
// The governor's slowdown against the measured one (sustained / cold, last 5 s), as this test
// prints them:
//   BF16 8192^3 x1.184 vs x1.144 (and x1.185 vs x1.182 in the other sitting); FP8 8192^3 x1.208
//   vs x1.164; attention x1.136 vs x1.131; copy, RMSNorm, SiLU x mul x1.000 vs x0.990-0.995;
//   not fitted: BF16 4096 x 7168 x 2048 (DeepSeek's shape) x1.212 vs x1.138, grouped BF16
//   x1.194 vs x1.170; over K 256 / 512 / 1024 / 2048: x1.075 / x1.128 / x1.191 / x1.179 vs
//   x1.119 / x1.139 / x1.170 / x1.166.
// The same GEMM flat out differs by 3% between sittings (x1.144, x1.167 in the duty run the
// clock response was fitted to, x1.182): the model sits inside that spread, except the GEMM
// that moves the most HBM bytes per FLOP (K = 256, 2.1 TB/s), which it lets run too fast.
// Within 5% on the fitted cases, 8% on the rest.
TEST(ClockModel, H100RunsFlatOutSlowDownAsMeasured) {
  const hardware::GpuSpec h100 = hardware::find_preset("h100")->gpu;
  nlohmann::json cases = testing::calibration_data("h100/power/h100_power.json").at("cases");
  const nlohmann::json sweep = testing::calibration_data("h100/power/gemm_bytes_power.json");
  for (const auto& c : sweep.at("cases")) {
    cases.push_back(c);
  }
  const std::map<std::string, PowerActivity> kinds = {{"gemm_bf16", PowerActivity::tensor_bf16},
                                                      {"grouped_gemm", PowerActivity::tensor_bf16},
                                                      {"gemm_fp8", PowerActivity::tensor_fp8},
                                                      {"attention", PowerActivity::attention},
                                                      {"norm", PowerActivity::norm},
                                                      {"elementwise", PowerActivity::elementwise},
                                                      {"copy", PowerActivity::copy}};
  int compared = 0;
  for (const auto& c : cases) {
    const auto kind = kinds.find(c.at("class").get<std::string>());
    if (kind == kinds.end()) {
      continue;  // the mix and the duty runs: not one kernel flat out
    }
    const core::Seconds cold(c.at("cold_us").get<double>() * 1e-6);
    const double flops = c.at("flops_per_replay").get<double>();
    const double bytes = c.at("hbm_bytes_per_replay").get<double>();
    Work w;
    if (flops > 0) {
      w.add(kind->second, cold, flops, h100);
      w.add_traffic(cold, bytes, h100);
    } else {
      w.add(kind->second, cold, bytes, h100);
    }
    const Governed g = govern(w, {}, h100.power);
    const double measured =
        c.at("sustained_last5s_median_us").get<double>() / c.at("cold_us").get<double>();
    const double predicted = g.busy / cold;
    std::printf("%-28s measured x%.3f, model x%.3f at %.0f MHz\n",
                c.at("case").get<std::string>().c_str(), measured, predicted,
                g.ratio * h100.power.max_clock_mhz);
    const bool fitted =
        c.at("case") != "gemm_bf16_4096x7168x2048" && c.at("class") != "grouped_gemm";
    EXPECT_NEAR(predicted, measured, fitted ? 0.05 : 0.08) << c.at("case");
    ++compared;
  }
  EXPECT_EQ(compared, 8 + 5);
}

}  // namespace
}  // namespace codesim::cost
