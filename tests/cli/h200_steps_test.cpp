// Whole training steps on one H200 against models/calibration/h200/steps/h200_steps.json, and on
// one H100 against models/calibration/h100/steps/h100_steps.json (never fitted to):
// Llama-3.1-8B-shaped (4 layers) and Qwen3-30B-A3B-shaped (8 MoE layers) models, eager
// (stack pytorch) and compiled (stack fused, with PyTorch's foreach AdamW as the runs had), 2 x
// 4096 tokens, BF16 parameters, gradients and moments. The step's time at the power cap against
// the sustained runs (issue 54: within 5%), its peak memory against the allocator's peak (issue
// 55: within 5%).
#include <gtest/gtest.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/data_files.hpp"
#include "tests/support/run_cli.hpp"

namespace codesim::testing {
namespace {

// Each measured run of `data` (h200_steps.py's output) against codesim's step on `gpu`: the step's
// time at the power cap against the sustained run within `time_tolerance`, the peak memory
// against the allocator's peak within 5%.
void compare_steps(const std::string& data, const std::string& gpu, double time_tolerance) {
  const auto measured = testing::calibration_data(data);
  int compared = 0;
  for (const auto& run : measured.at("runs")) {
    const std::string model = run.at("model") == "dense" ? "dense4" : "moe8";
    const std::string stack = run.at("mode") == "eager" ? "pytorch" : "fused";
    const auto r = run_codesim("run models/calibration/h200/steps/codesim/step_" + model + "_" +
                               stack + ".yaml --set hardware.gpu=" + gpu + " --format json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    const double step_us = j.at("step_time_s").get<double>() * 1e6;
    const double peak_gb = j.at("memory_gb_per_gpu").at("total").get<double>();
    const double sustained_us = run.at("sustained_last5s_median_us").get<double>();
    const double peak_measured_gb = run.at("peak_memory_bytes").get<double>() / 1e9;
    EXPECT_NEAR(step_us / sustained_us, 1.0, time_tolerance) << gpu << " " << model << " " << stack;
    EXPECT_NEAR(peak_gb / peak_measured_gb, 1.0, 0.05) << gpu << " " << model << " " << stack;
    std::cout << gpu << " " << model << " " << stack << ": step " << step_us / 1e3
              << " ms (measured " << sustained_us / 1e3 << "), peak " << peak_gb << " GB (measured "
              << peak_measured_gb << ")\n";
    ++compared;
  }
  EXPECT_EQ(compared, 4);
}

TEST(H200Steps, TimeAndPeakMemoryWithinFivePercent) {
  compare_steps("h200/steps/h200_steps.json", "h200", 0.05);
}

// The same steps on the H100 (models/calibration/h100/steps, taken after predictions were
// registered; never fitted to): the same 5%.
TEST(H100Steps, TimeAndPeakMemoryWithinFivePercent) {
  compare_steps("h100/steps/h100_steps.json", "h100", 0.05);
}

}  // namespace
}  // namespace codesim::testing
