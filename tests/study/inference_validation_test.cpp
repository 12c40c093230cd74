// Issue 36's validation: every whole-model decode step and prefill timed on one H200
// (models/calibration/h200/decode/h200_decode.json: Llama 3.1 8B dims; h200_moe_decode.json:
// DeepSeek-V2-Lite and Mixtral 8x7B dims; h200_compiled_inference.json: Llama dims with each
// layer under torch.compile), re-predicted from the shipped single-H200 scenario with only the
// measured case's model, batch, context, prompts or stack set. Nothing in the model is fitted to
// these steps. The measured runs end at the logits (no sampling), as BF16 PyTorch replayed from
// one CUDA graph: software.stack pytorch (compiled: fused), cuda_graphs true.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/config/loader.hpp"
#include "sim/study/inference.hpp"

namespace codesim::study {
namespace {

const std::string kScenario = CODESIM_SOURCE_DIR "/scenarios/llama3.1-8b-decode-h200.yaml";
const std::string kData = CODESIM_SOURCE_DIR "/models/calibration/h200/decode/";

struct Case {
  std::string label;
  std::vector<std::string> settings;
  double measured_us = 0;
};

// The measured script's model name -> the catalog preset with its dimensions.
std::string preset_of(const nlohmann::json& c) {
  if (!c.contains("model")) {
    return "llama3.1-8b";
  }
  return c["model"] == "v2_lite" ? "deepseek-v2-lite" : "mixtral-8x7b";
}

std::vector<Case> measured_cases() {
  std::vector<Case> cases;
  for (const char* file :
       {"h200_decode.json", "h200_moe_decode.json", "h200_compiled_inference.json"}) {
    std::ifstream in(kData + file);
    const auto data = nlohmann::json::parse(in);
    for (const auto& c : data["cases"]) {
      const std::string part = c["part"];
      const std::string preset = preset_of(c);
      std::vector<std::string> s{"model.preset=" + preset, "inference.sampling=false",
                                 "software.cuda_graphs=true"};
      const bool compiled = c.value("stack", "eager") == "compiled";
      if (compiled) {
        s.push_back("software.stack=fused");
      }
      std::string label = compiled ? "compiled " : "";
      if (part == "decode_step") {
        const int batch = c["batch"];
        const int context = c["context"];
        s.push_back("inference.requests_per_gpu=" + std::to_string(batch));
        s.push_back("inference.context_len=" + std::to_string(context));
        label += preset + " decode, batch " + std::to_string(batch) + ", context " +
                 std::to_string(context);
      } else if (part == "prefill") {
        const int prompts = c["prompts"];
        const int length = c["prompt_len"];
        s.push_back("workload.kind=prefill");
        s.push_back("workload.seq_len=" + std::to_string(length));
        s.push_back("inference.prompt_tokens_per_gpu=" + std::to_string(prompts * length));
        label += preset + " prefill, " + std::to_string(prompts) + " x " + std::to_string(length);
      } else {
        continue;
      }
      cases.push_back({label, s, c["time_us"]});
    }
  }
  return cases;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Issue 36: median error <= 10%, worst <= 25% over our own H200 inference measurements. The
// table printed here is models/calibration/README.md's.
TEST(InferenceValidation, H200DecodeAndPrefillStepsWithinTheTargets) {
  const auto cases = measured_cases();
  ASSERT_EQ(cases.size(), 70u);  // 21 + 11 Llama, 19 + 10 MoE, 4 + 5 compiled Llama
  std::vector<double> errors;
  for (const Case& c : cases) {
    std::vector<config::Setting> settings;
    for (const auto& s : c.settings) {
      settings.push_back(config::parse_setting(s));
    }
    const auto r = simulate_inference(config::load_scenario(kScenario, settings));
    const double predicted_us = r.step_time.value * 1e6;
    const double error = predicted_us / c.measured_us - 1;
    errors.push_back(std::abs(error));
    std::printf("| %s | %.2f | %.2f | %+.1f%% |\n", c.label.c_str(), c.measured_us / 1e3,
                predicted_us / 1e3, 100 * error);
  }
  const double worst = *std::max_element(errors.begin(), errors.end());
  std::printf("median %.1f%%, worst %.1f%% over %zu steps\n", 100 * median(errors), 100 * worst,
              errors.size());
  EXPECT_LE(median(errors), 0.10);
  EXPECT_LE(worst, 0.25);
}

// The MoE prefills again, each layer's experts priced with the rows its router gave in the same
// prefill (h200_moe_routing.json: the same models, seed and prompts, re-run to record them) through
// inference.expert_counts. The even spread leaves Mixtral's prefills fast (the table above); with
// the recorded routing every MoE prefill is within 5% (issue 54's target): Mixtral -2.5% to
// -4.2%, DeepSeek-V2-Lite -2.6% to +0.4%. (V2-Lite at 1 x 2048 was -6.3% until the eager stack
// counted every kernel it launches, 3,310 a step, 122 a layer, h200_decode_kernels.json, and the
// attention form the last tiles of a few-heads call.)
TEST(InferenceValidation, MoePrefillsWithTheirRecordedRoutingWithinFivePercent) {
  std::ifstream routing_in(kData + "h200_moe_routing.json");
  const auto routing = nlohmann::json::parse(routing_in);
  std::ifstream measured_in(kData + "h200_moe_decode.json");
  const auto measured = nlohmann::json::parse(measured_in);
  int compared = 0;
  for (const auto& run : routing["runs"]) {
    for (const auto& c : measured["cases"]) {
      if (c["part"] != "prefill" || c["model"] != run["model"] || c["prompts"] != run["prompts"] ||
          c["prompt_len"] != run["prompt_len"]) {
        continue;
      }
      const int prompts = c["prompts"];
      const int length = c["prompt_len"];
      const std::string counts = ::testing::TempDir() + "routing_" + std::string(run["model"]) +
                                 "_" + std::to_string(prompts) + "x" + std::to_string(length) +
                                 ".json";
      std::ofstream(counts) << nlohmann::json{{"layers", run["counts"]}}.dump();
      std::vector<config::Setting> settings;
      for (const std::string& s :
           {"model.preset=" + preset_of(c), std::string("inference.sampling=false"),
            std::string("software.cuda_graphs=true"), std::string("workload.kind=prefill"),
            "workload.seq_len=" + std::to_string(length),
            "inference.prompt_tokens_per_gpu=" + std::to_string(prompts * length),
            "inference.expert_counts=" + counts}) {
        settings.push_back(config::parse_setting(s));
      }
      const auto r = simulate_inference(config::load_scenario(kScenario, settings));
      const double error = r.step_time.value * 1e6 / c["time_us"].get<double>() - 1;
      std::printf("| %s prefill, %d x %d, recorded routing | %+.1f%% |\n", preset_of(c).c_str(),
                  prompts, length, 100 * error);
      EXPECT_LE(std::abs(error), 0.05) << preset_of(c) << " " << prompts << " x " << length;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 10);  // 5 DeepSeek-V2-Lite, 5 Mixtral
}

}  // namespace
}  // namespace codesim::study
