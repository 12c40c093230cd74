// FP8, LogFMT, BF16 and MLA against float64.
#include <gtest/gtest.h>

#include <cmath>

#include "models/kernels/fp8.hpp"
#include "models/kernels/logfmt.hpp"
#include "models/kernels/mla.hpp"
#include "models/kernels/rng.hpp"
#include "models/llm/layer_ops.hpp"

namespace codesim::kernels {
namespace {

TEST(E4M3, KnownValues) {
  EXPECT_EQ(encode(0.0f, kE4M3), 0x00);
  EXPECT_EQ(encode(-0.0f, kE4M3), 0x80);
  EXPECT_EQ(encode(1.0f, kE4M3), 0x38);     // exponent 7 = bias, mantissa 0
  EXPECT_EQ(encode(448.0f, kE4M3), 0x7E);   // 1.75 x 2^8, the largest
  EXPECT_EQ(encode(1000.0f, kE4M3), 0x7E);  // saturates
  EXPECT_EQ(encode(-1e9f, kE4M3), 0xFE);
  EXPECT_EQ(encode(std::ldexp(1.0f, -9), kE4M3), 0x01);   // smallest subnormal 2^-9
  EXPECT_EQ(encode(std::ldexp(1.0f, -11), kE4M3), 0x00);  // a quarter of it rounds to 0
  EXPECT_EQ(encode(std::ldexp(1.0f, -6), kE4M3), 0x08);   // smallest normal
  EXPECT_EQ(encode(NAN, kE4M3), 0x7F);
  EXPECT_TRUE(std::isnan(decode(0x7F, kE4M3)));
  EXPECT_EQ(decode(0x7E, kE4M3), 448.0f);
  EXPECT_EQ(decode(0x01, kE4M3), std::ldexp(1.0f, -9));
  // Round to nearest even: 1.0625 lies halfway between 1 and 1.125 -> 1 (even mantissa).
  EXPECT_EQ(round_to(1.0625f, kE4M3), 1.0f);
  EXPECT_EQ(round_to(1.1875f, kE4M3), 1.25f);  // between 1.125 and 1.25 -> 1.25 (even)
  // Every code decodes and re-encodes to itself (except the NaNs).
  for (int c = 0; c < 256; ++c) {
    if ((c & 0x7F) != 0x7F) {
      EXPECT_EQ(encode(decode(static_cast<std::uint8_t>(c), kE4M3), kE4M3), c) << c;
    }
  }
}

TEST(E5M2, KnownValues) {
  EXPECT_EQ(decode(encode(57344.0f, kE5M2), kE5M2), 57344.0f);
  EXPECT_EQ(encode(1.0f, kE5M2), 0x3C);
  EXPECT_EQ(decode(0x7C, kE5M2), INFINITY);
  EXPECT_EQ(decode(0x01, kE5M2), std::ldexp(1.0f, -16));
}

TEST(Bf16, RoundsToNearestEven) {
  EXPECT_EQ(round_to_bf16(1.0f), 1.0f);
  EXPECT_EQ(round_to_bf16(1.0f + std::ldexp(1.0f, -8)), 1.0f);  // halfway, even
  EXPECT_EQ(round_to_bf16(1.0f + 3 * std::ldexp(1.0f, -8)),
            1.0f + std::ldexp(1.0f, -6));  // halfway, odd up
}

RowMatrixXf gaussian(int rows, int cols, std::uint64_t seed) {
  Rng rng(seed);
  RowMatrixXf m(rows, cols);
  for (int i = 0; i < m.size(); ++i) {
    m.data()[i] = static_cast<float>(rng.normal());
  }
  return m;
}

TEST(Fp8Quantization, TilesScaleToTheirMaximum) {
  const RowMatrixXf x = gaussian(4, 512, 1);
  const Fp8Tensor q = quantize_activations(x);
  EXPECT_EQ(q.scales.size(), 4u * 4u);
  EXPECT_FLOAT_EQ(q.scale(2, 300), x.block(2, 256, 1, 128).cwiseAbs().maxCoeff() / 448.0f);
  // Relative error of one E4M3 rounding is at most 2^-4.
  const RowMatrixXf back = dequantize(q);
  for (int i = 0; i < x.size(); ++i) {
    EXPECT_LE(std::fabs(back.data()[i] - x.data()[i]), std::fabs(x.data()[i]) * 0.0625f + 1e-6f);
  }
}

TEST(Fp8Gemm, PromotionIsFarMoreAccurateAtK4096) {
  // K = 4096: accumulating everything in ~14 bits loses far more than promoting every 128.
  const Fp8Tensor a = quantize_activations(gaussian(16, 4096, 2));
  const Fp8Tensor b = quantize_weights(gaussian(4096, 16, 3));
  const Eigen::MatrixXd exact = dequantize(a).cast<double>() * dequantize(b).cast<double>();
  const double promoted = relative_error(fp8_gemm(a, b, {}), exact);
  const double unpromoted = relative_error(fp8_gemm(a, b, {.promotion_interval = 0}), exact);
  EXPECT_LT(promoted * 4, unpromoted) << promoted << " vs " << unpromoted;
  // More accumulator bits, less error.
  EXPECT_LT(relative_error(fp8_gemm(a, b, {.mantissa_bits = 22, .promotion_interval = 0}), exact),
            promoted);
}

TEST(LogFmt, EightBitsBeatE4M3AndTenBitsApproachBf16) {
  const RowMatrixXf g = gaussian(1, 128 * 256, 4);
  const std::vector<float> x(g.data(), g.data() + g.size());
  std::vector<float> bf16(x.size());
  std::transform(x.begin(), x.end(), bf16.begin(), round_to_bf16);
  const double e4m3 = relative_rms_error(x, round_per_tile(x, kE4M3));
  const double e5m2 = relative_rms_error(x, round_per_tile(x, kE5M2));
  const double log8 = relative_rms_error(x, logfmt_roundtrip(x, 8));
  const double log10 = relative_rms_error(x, logfmt_roundtrip(x, 10));
  const double b16 = relative_rms_error(x, bf16);
  EXPECT_LT(log8, e4m3);
  EXPECT_LT(e4m3, e5m2);
  EXPECT_LT(log10, e4m3 / 5);
  EXPECT_LT(log10, 3 * b16);
}

TEST(LogFmt, CodesFollowTheSpec) {
  // Tile {0, 1, e, -e^2}: min ln = 0, max = 2; 8 bits: 127 codes, step = 2 / 126.
  const float x[4] = {0.0f, 1.0f, std::exp(1.0f), -std::exp(2.0f)};
  const LogFmtTile t = logfmt_encode(x, 4, 8);
  EXPECT_FLOAT_EQ(t.min_log, 0.0f);
  EXPECT_FLOAT_EQ(t.step, 2.0f / 126.0f);
  EXPECT_EQ(t.codes[0], 0);          // zero
  EXPECT_EQ(t.codes[1], 1);          // min
  EXPECT_EQ(t.codes[2], 64);         // middle: 1 + 63 steps
  EXPECT_EQ(t.codes[3], 127 | 128);  // max, negative
  const auto back = logfmt_decode(t, 8);
  EXPECT_FLOAT_EQ(back[3], -std::exp(2.0f));
}

llm::LlmSpec small_mla_model() {
  return llm::LlmSpec{.name = "small",
                      .hidden = 128,
                      .layers = 1,
                      .heads = 4,
                      .vocab = 10,
                      .ffn_inter_dim = 96,
                      .dense_layers = 1,
                      .attention = llm::MlaSpec{.q_lora_rank = 64,
                                                .kv_lora_rank = 32,
                                                .qk_nope_head_dim = 16,
                                                .qk_rope_head_dim = 8,
                                                .v_head_dim = 16}};
}

TEST(Mla, AbsorbedEqualsNaive) {
  const auto m = small_mla_model();
  const auto w = random_mla_weights(std::get<llm::MlaSpec>(m.attention), m.hidden, m.heads, 5);
  const RowMatrixXf x = gaussian(24, m.hidden, 6);
  const auto naive = mla_naive(x, w);
  const auto absorbed = mla_absorbed(x, w);
  EXPECT_LT((naive.out - absorbed.out).norm() / naive.out.norm(), 1e-5);
}

TEST(Mla, FlopsMatchTheModelAnalytics) {
  // The naive kernel computes the full score matrix, so it matches the non-causal count.
  const auto m = small_mla_model();
  const auto w = random_mla_weights(std::get<llm::MlaSpec>(m.attention), m.hidden, m.heads, 5);
  const int tokens = 24;
  const auto naive = mla_naive(gaussian(tokens, m.hidden, 7), w);
  double analytics = 0;
  for (const auto& op :
       llm::attention_ops(m, m.layer(0), {.seq_len = tokens, .micro_batch = 1, .causal = false})) {
    analytics += llm::counts_as_model_flops(op.op_class) ? op.forward.value : 0.0;
  }
  EXPECT_DOUBLE_EQ(naive.flops, analytics);
}

TEST(SwigluMlp, FlopsMatchTheModelAnalytics) {
  const auto m = small_mla_model();
  const int tokens = 10;
  const auto r =
      swiglu_mlp(gaussian(tokens, m.hidden, 8), gaussian(m.hidden, m.ffn_inter_dim, 9),
                 gaussian(m.hidden, m.ffn_inter_dim, 10), gaussian(m.ffn_inter_dim, m.hidden, 11));
  double analytics = 0;
  for (const auto& op : llm::dense_ffn_ops(m, {.seq_len = tokens, .micro_batch = 1})) {
    analytics += llm::counts_as_model_flops(op.op_class) ? op.forward.value : 0.0;
  }
  EXPECT_DOUBLE_EQ(r.flops, analytics);
}

}  // namespace
}  // namespace codesim::kernels
