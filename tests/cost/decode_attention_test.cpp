// Decode attention by kernel: the cuDNN SDPA fit on the H200 cases it was not fitted to, FlashMLA's
// published rates, and the absorbed-MLA ops (priced by the kernel model, fitted to nothing here)
// against the 48 MLA decode-attention cases timed on the H200.
#include "models/cost/decode_attention.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <vector>

#include "models/hardware/catalog.hpp"
#include "tests/support/data_files.hpp"

namespace codesim::cost {
namespace {

const hardware::GpuSpec kH200Decode = hardware::find_preset("h200")->gpu;
const hardware::GpuSpec kH800Decode = hardware::find_preset("h800")->gpu;

nlohmann::json decode_data(const char* file) {
  return testing::calibration_data(std::string("h200/decode/") + file);
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

TEST(DecodeAttention, KvBytesAndFlopsPerShape) {
  // GQA: 8 requests x 4096 tokens x 8 KV heads x (128 + 128) x 2 B; FLOPs 2 x 8 x 32 heads x
  // 4096 x 256. MLA: one latent of 576 per token, 2 B.
  const DecodeAttentionShape gqa{
      .requests = 8, .context = 4096, .heads = 32, .kv_heads = 8, .d_qk = 128, .d_v = 128};
  EXPECT_DOUBLE_EQ(decode_kv_bytes(gqa).value, 8.0 * 4096 * 8 * 256 * 2);
  EXPECT_DOUBLE_EQ(decode_attention_flops(gqa).value, 2.0 * 8 * 32 * 4096 * 256);
  const DecodeAttentionShape mla{
      .requests = 8, .context = 4096, .heads = 128, .d_qk = 576, .d_v = 512, .latent = true};
  EXPECT_DOUBLE_EQ(decode_kv_bytes(mla).value, 8.0 * 4096 * 576 * 2);
}

TEST(DecodeAttention, FlashMlaRunsAtItsPublishedRates) {
  // 128 heads: 2 x (576 + 512) = 2176 FLOPs per head and cached token against 1152 B: 242 FLOP/B,
  // over FlashMLA's ridge of 580 TFLOPS / 3000 GB/s = 193: compute-bound, 580 TFLOPS. 16 heads:
  // 30 FLOP/B: memory-bound at 3000 GB/s. Both plus two kernels' fixed cost.
  const double launch = 2 * default_params().launch_overhead.value;
  DecodeAttentionShape s{
      .requests = 64, .context = 8192, .heads = 128, .d_qk = 576, .d_v = 512, .latent = true};
  auto c =
      predict_decode_attention(DecodeAttentionKernel::flash_mla, s, kH800Decode, kH800Decode.sms);
  EXPECT_EQ(c.bound, "compute");
  EXPECT_NEAR(c.time.value, decode_attention_flops(s).value / 580e12 + launch, 1e-12);
  s.heads = 16;
  c = predict_decode_attention(DecodeAttentionKernel::flash_mla, s, kH800Decode, kH800Decode.sms);
  EXPECT_EQ(c.bound, "memory");
  EXPECT_NEAR(c.time.value, decode_kv_bytes(s).value / 3000e9 + launch, 1e-12);
}

// fit_decode_attention.py fitted the cuDNN terms to two thirds of its cases; on the held-out
// third (every third case) the median error must stay within 5% and the worst within 20%.
TEST(DecodeAttention, HeldOutCudnnCasesWithinTheTargets) {
  std::vector<double> errors;
  int i = 0;
  const auto data = decode_data("h200_decode.json");
  for (const auto& c : data["cases"]) {
    if (c["part"] != "attention" || c["backend"] != "cudnn") {
      continue;
    }
    if (i++ % 3 != 2) {
      continue;
    }
    const DecodeAttentionShape s{.requests = c["batch"].get<double>(),
                                 .context = c["context"].get<double>(),
                                 .heads = c["heads"].get<double>(),
                                 .kv_heads = c["kv_heads"].get<double>(),
                                 .d_qk = c["head_dim"].get<double>(),
                                 .d_v = c["head_dim"].get<double>()};
    EXPECT_DOUBLE_EQ(decode_kv_bytes(s).value, c["kv_bytes"].get<double>());
    const double predicted =
        predict_decode_attention(DecodeAttentionKernel::sdpa, s, kH200Decode, kH200Decode.sms)
            .time.value;
    errors.push_back(std::fabs(predicted * 1e6 / c["time_us"].get<double>() - 1));
  }
  ASSERT_EQ(errors.size(), 8u);
  EXPECT_LE(median_of(errors), 0.05);
  EXPECT_LE(*std::max_element(errors.begin(), errors.end()), 0.20);
}

// The absorbed MLA as PyTorch ops, each kernel priced by the kernel model (nothing fitted to these
// cases): the table in models/calibration/README.md.
TEST(DecodeAttention, AbsorbedMlaOpsAgainstTheH200Cases) {
  std::vector<double> errors;
  const auto data = decode_data("h200_moe_decode.json");
  for (const auto& c : data["cases"]) {
    if (c["part"] != "mla_attention") {
      continue;
    }
    const double latent = c["latent"].get<double>();
    const DecodeAttentionShape s{.requests = c["batch"].get<double>(),
                                 .context = c["context"].get<double>(),
                                 .heads = c["heads"].get<double>(),
                                 .d_qk = latent + c["rope"].get<double>(),
                                 .d_v = latent,
                                 .latent = true};
    EXPECT_DOUBLE_EQ(decode_kv_bytes(s).value, c["cache_bytes"].get<double>());
    const double predicted =
        predict_decode_attention(DecodeAttentionKernel::mla_ops, s, kH200Decode, kH200Decode.sms)
            .time.value *
        1e6;
    const double error = predicted / c["time_us"].get<double>() - 1;
    errors.push_back(std::fabs(error));
    std::printf("| %g | %g | %g | %.1f | %.1f | %+.1f%% |\n", s.heads, s.requests, s.context,
                c["time_us"].get<double>(), predicted, 100 * error);
  }
  ASSERT_EQ(errors.size(), 48u);
  const double worst = *std::max_element(errors.begin(), errors.end());
  std::printf("median %.1f%%, worst %.1f%%\n", 100 * median_of(errors), 100 * worst);
  // A guard, not a target: 12.7% and 57.6% when written. Batch 1 runs 20-32 us, about twice the
  // seven kernels' fixed costs the model counts; from batch 8 on the model is within 25%.
  EXPECT_LE(median_of(errors), 0.15);
  EXPECT_LE(worst, 0.60);
}

}  // namespace
}  // namespace codesim::cost
