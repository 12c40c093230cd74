// Every preset read from a published config trains (a step on 16 H100, fast tier) and decodes (a
// step on 8 H200): the model families' layer kinds reach the step, whatever their pattern.
#include <gtest/gtest.h>

#include <cctype>
#include <numeric>

#include "models/llm/analytics.hpp"
#include "sim/config/loader.hpp"
#include "sim/study/inference.hpp"
#include "sim/study/training.hpp"

namespace codesim::study {
namespace {

constexpr const char* kPresets[] = {"qwen3-30b-a3b",   "qwen3-235b-a22b", "qwen1.5-moe-a2.7b",
                                    "gpt-oss-20b",     "gpt-oss-120b",    "llama4-scout",
                                    "llama4-maverick", "kimi-k2",         "glm-4.5",
                                    "mixtral-8x22b"};

// Expert parallelism over the 8 GPUs of a node, or fewer where 8 does not divide the experts
// (Qwen1.5-MoE's 60: 4).
int ep_for(const std::string& preset) {
  const auto s = config::load_scenario_text("model: {preset: " + preset + "}\n", "ep.yaml");
  return std::gcd(s.model.spec.moe->routed_experts, 8);
}

TEST(Presets, EveryPublishedConfigTrains) {
  for (const std::string preset : kPresets) {
    SCOPED_TRACE(preset);
    const config::Scenario s = config::load_scenario_text(
        "model: {preset: " + preset +
            "}\nhardware: {gpu: h100, nodes: 2, hbm_capacity: 1TB}\n"
            "topology: {family: ft2, switch_radix: 64}\n"
            "parallelism: {tp: 1, pp: 2, ep: " + std::to_string(ep_for(preset)) +
            "}\nworkload: {seq_len: 4096, global_batch_sequences: 16}\n",
        preset + "-train.yaml");
    const TrainingRun run = run_training(s, {.fidelity = metrics::Fidelity::fast});
    ASSERT_GT(run.result.step_time.value, 0);
    // tokens per day = global batch x seq_len / step x 86400 s.
    EXPECT_NEAR(run.result.tokens_per_day, 16.0 * 4096 / run.result.step_time.value * 86400,
                1e-6 * run.result.tokens_per_day);
  }
}

// One decode per test: SimGrid (the EP round) is set up once per process.
class PresetDecode : public testing::TestWithParam<const char*> {};

TEST_P(PresetDecode, PublishedConfigDecodes) {
  {
    const std::string preset = GetParam();
    const config::Scenario s = config::load_scenario_text(
        "model: {preset: " + preset +
            "}\nhardware: {gpu: h200, nodes: 1, hbm_capacity: 1TB}\n"
            "parallelism: {tp: 1, ep: " + std::to_string(ep_for(preset)) +
            "}\nworkload: {kind: decode, precision: {gemm: bf16}}\n"
            "inference: {requests_per_gpu: 16, context_len: 32768}\n",
        preset + "-decode.yaml");
    const metrics::InferenceResult r = simulate_inference(s);
    ASSERT_GT(r.step_time.value, 0);
    // Each request's cache at 32K tokens, its sliding and chunked layers keeping their windows.
    EXPECT_DOUBLE_EQ(r.kv_cache_per_gpu.value,
                     16 * llm::kv_cache_bytes(s.model.spec, 32768).value);
  }
}

INSTANTIATE_TEST_SUITE_P(Presets, PresetDecode, testing::ValuesIn(kPresets),
                         [](const testing::TestParamInfo<const char*>& param) {
                           std::string name = param.param;
                           for (char& c : name) {
                             c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace codesim::study
