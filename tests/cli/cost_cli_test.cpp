// `codesim cost` as a user runs it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

namespace codesim::testing {
namespace {

TEST(CostCli, GemmJsonSaysTimeBoundAndEfficiency) {
  const auto r = run_codesim(
      "cost gemm --hardware h200 --m 8192 --n 8192 --k 8192 --dtype bf16 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["bound"], "compute");
  EXPECT_EQ(j["waves"], 63);  // 8192 tiles of 128 x 64 on 132 SMs
  // time = flops / (peak x efficiency), the last of 63 waves' epilogue (C's 134 MB at 0.70 of
  // 4.8 TB/s over 63: 0.635 us) and the 1.33 us fixed cost.
  const double flops = 2.0 * 8192 * 8192 * 8192;
  EXPECT_NEAR(j["time_us"].get<double>(),
              flops / (989e12 * j["efficiency"].get<double>()) * 1e6 +
                  2.0 * 8192 * 8192 / (4.8e12 * 0.70) / 63 * 1e6 + 1.33,
              1e-6);
}

TEST(CostCli, BadArguments) {
  const auto r = run_codesim("cost gemm --m 0");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "codesim cost: error: a GEMM needs --m, --n and --k of at least 1\n");
  const auto s = run_codesim("cost gemm --m 1 --n 1 --k 1 --sms 200");
  EXPECT_EQ(s.exit_code, 2);
  EXPECT_EQ(s.err, "codesim cost: error: --sms 200 exceeds the 132 SMs of h800\n");
  const auto c = run_codesim("cost convolution --bytes 1");
  EXPECT_EQ(c.exit_code, 2);
  EXPECT_EQ(c.err,
            "codesim cost: error: unknown kernel class 'convolution'\n"
            "  hint: one of: gemm, grouped_gemm, attention, attention_forward, attention_backward, "
            "elementwise, norm, quantize, memcpy, optimizer\n");
  const auto f = run_codesim("cost gemm --hardware a100 --m 8 --n 8 --k 8 --dtype fp8");
  EXPECT_EQ(f.exit_code, 2);
  EXPECT_EQ(f.err,
            "codesim cost: error: --dtype: a100 has no FP8 tensor cores\n"
            "  hint: use --dtype bf16\n");
  const auto a = run_codesim("cost attention --heads 16");
  EXPECT_EQ(a.exit_code, 2);
  EXPECT_EQ(a.err,
            "codesim cost: error: attention needs --heads, --seq, --batch and --d-qk of at least "
            "1\n");
}

TEST(CostCli, GroupedGemmByEachGroupsRows) {
  // Even groups given row by row price as --m x --batch; uneven ones (layer 1 of the H200 Mixtral
  // prefill of 2048 tokens, h200_moe_routing.json, each expert's rows padded to 8) cost more
  // tiles: 35 tiles of 128 rows for its 4128 rows against 32 for 8 x 512.
  auto time_of = [](const std::string& args) {
    const auto r =
        run_codesim("cost grouped_gemm --hardware h200 --n 28672 --k 4096 --format json " + args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out)["time_us"].get<double>();
  };
  const double even = time_of("--m 512 --batch 8");
  EXPECT_DOUBLE_EQ(time_of("--rows 512,512,512,512,512,512,512,512"), even);
  EXPECT_GT(time_of("--rows 592,472,448,584,488,488,584,472"), 1.05 * even);
  const auto g = run_codesim("cost gemm --rows 8,8 --n 8 --k 8");
  EXPECT_EQ(g.exit_code, 2);
  EXPECT_EQ(g.err,
            "codesim cost: error: --rows: --rows gives a grouped GEMM's groups; gemm has none\n"
            "  hint: use grouped_gemm, or --m and --batch\n");
  const auto z = run_codesim("cost grouped_gemm --rows 0,0 --n 8 --k 8");
  EXPECT_EQ(z.exit_code, 2);
  EXPECT_EQ(z.err,
            "codesim cost: error: --rows: --rows gives no rows at all\n"
            "  hint: give each group's rows\n");
}

TEST(CostCli, AttentionByShape) {
  // MLA on 16 heads of 4096 tokens: d_qk 192, d_v 128, causal; FLOPs 2 x 16 x 4096^2 / 2 x 320;
  // time = FLOPs / (989 TFLOPS x e) + 0.65 x one 128-row query tile's FLOPs over the 4096 keys
  // (x 3.5 with backward) / (989 / 132 TFLOPS x e) + 1.33 us (attention_cost.hpp).
  const auto r = run_codesim(
      "cost attention --hardware h200 --heads 16 --seq 4096 --d-qk 192 --d-v 128 --batch 4 "
      "--causal --pass fwd+bwd --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const double forward = 2.0 * 4 * 16 * 4096.0 * 4096 / 2 * 320;
  const double tile = 3.5 * 2 * 128 * 4096.0 * 320;
  const double e = j["efficiency"].get<double>();
  EXPECT_DOUBLE_EQ(j["flops"].get<double>(), 3.5 * forward);
  EXPECT_EQ(j["bound"], "compute");
  EXPECT_NEAR(j["time_us"].get<double>(),
              (3.5 * forward / (989e12 * e) + 0.65 * tile / (989e12 / 132 * e)) * 1e6 + 1.33, 1e-6);
}

}  // namespace
}  // namespace codesim::testing
