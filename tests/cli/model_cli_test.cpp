// `codesim model` and the CLI's exit codes, run as a user runs them.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

namespace codesim::testing {
namespace {

nlohmann::json model_json(const std::string& args) {
  const auto r = run_codesim("model " + args + " --format json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

TEST(ModelCli, PublishedFiguresFromThePresets) {
  // KV cache exactly (ISCA 2025 Table 1); GFLOP/token within 3% (Table 2); params (V3 report).
  const auto v3 = model_json("deepseek-v3");
  EXPECT_EQ(v3["kv_cache_bytes_per_token"].get<long long>(), 70272);
  EXPECT_NEAR(v3["training_gflop_per_token"].get<double>() / 250, 1.0, 0.03);
  EXPECT_NEAR(v3["params_total"].get<double>() / 671e9, 1.0, 0.01);
  EXPECT_NEAR(v3["params_active"].get<double>() / 37e9, 1.0, 0.02);
  EXPECT_EQ(model_json("qwen2.5-72b")["kv_cache_bytes_per_token"].get<long long>(), 327680);
  EXPECT_EQ(model_json("llama3.1-405b")["kv_cache_bytes_per_token"].get<long long>(), 516096);
  EXPECT_NEAR(model_json("deepseek-v2")["training_gflop_per_token"].get<double>() / 155, 1.0, 0.03);
  EXPECT_NEAR(model_json("llama3.1-405b")["training_gflop_per_token"].get<double>() / 2448, 1.0,
              0.03);
  // The paper's Qwen figure is printed beside ours.
  EXPECT_EQ(model_json("qwen2.5-72b")["published"]["training_gflop_per_token"].get<double>(), 394);
}

TEST(ModelCli, ConfigFileEqualsThePreset) {
  auto preset = model_json("deepseek-v3");
  auto config = model_json("--config models/llm/configs/config_671B.json");
  // Only the name, the source and the published block (presets only) may differ.
  for (auto* j : {&preset, &config}) {
    j->erase("name");
    j->erase("source");
    j->erase("published");
  }
  EXPECT_EQ(preset, config);
}

TEST(ModelCli, SeqLenChangesOnlyAttention) {
  // Attention FLOPs grow linearly with seq_len per token (causal: 3 x 2 x s/2 x heads x (192+128) x
  // 61).
  const double at_4k = model_json("deepseek-v3")["training_gflop_per_token"].get<double>();
  const double at_8k =
      model_json("deepseek-v3 --seq-len 8192")["training_gflop_per_token"].get<double>();
  const double attention_4k = 3.0 * 2 * 2048 * 128 * (192 + 128) * 61 / 1e9;
  EXPECT_NEAR(at_8k - at_4k, attention_4k, 1e-6);
}

TEST(ModelCli, TableListsTheFiguresAndOps) {
  const auto r = run_codesim("model deepseek-v3");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("KV cache per token (B, BF16)            70272  (published 70272, +0.0%)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("moe 3-60   experts_gate_up"), std::string::npos);
}

TEST(ExitCodes, VersionHelpAndUsage) {
  EXPECT_EQ(run_codesim("--version").out, "codesim 0.1.0\n");
  EXPECT_EQ(run_codesim("--version").exit_code, 0);
  EXPECT_EQ(run_codesim("--help").exit_code, 0);
  EXPECT_EQ(run_codesim("").exit_code, 2);            // no subcommand
  EXPECT_EQ(run_codesim("frobnicate").exit_code, 2);  // unknown subcommand
  EXPECT_EQ(run_codesim("model deepseek-v3 --format xml").exit_code, 2);
  EXPECT_EQ(run_codesim("model deepseek-v3 --seq-len 0").exit_code, 2);
}

TEST(ExitCodes, UnknownModelNamesThePresets) {
  const auto r = run_codesim("model deepseek-v4");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(
      r.err,
      "codesim model: error: unknown model 'deepseek-v4'\n"
      "  hint: did you mean 'deepseek-v3'? presets: deepseek-v3, deepseek-v2, deepseek-v2-lite, "
      "qwen2.5-72b, llama3.1-405b, llama3.1-70b, llama3.1-8b, mixtral-8x7b, gpt3-175b, "
      "gpt-oss-120b, gpt-oss-20b, glm-4.5, kimi-k2, llama4-maverick, llama4-scout, "
      "mixtral-8x22b, qwen1.5-moe-a2.7b, qwen3-235b-a22b, qwen3-30b-a3b\n");
  EXPECT_EQ(r.out, "");
}

TEST(ExitCodes, BudgetFlagsArePositiveFiniteNumbers) {
  // nan passed CLI11's PositiveNumber, and 0 was refused with DBL_MAX's 309 digits as the range.
  for (const std::string value : {"nan", "0", "-5", "inf"}) {
    const auto r =
        run_codesim("run scenarios/llama3.1-8b-decode-h200.yaml --max-memory-mb " + value);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "--max-memory-mb: must be a positive number, got '" + value +
                         "'\nRun with --help for more information.\n");
    EXPECT_EQ(r.out, "");
  }
}

TEST(ExitCodes, NameAndConfigTogetherIsUsageError) {
  const auto r = run_codesim("model deepseek-v3 --config x.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "codesim model: give a preset name or --config FILE (not both)\n");
}

}  // namespace
}  // namespace codesim::testing
