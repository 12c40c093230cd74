// The piece model: its constants are the fit of the DeepSeek profile trace, and it scales as
// stated (SMs held, HBM bandwidth for the other kernels, tokens).
#include "sim/workload/piece_model.hpp"

#include <gtest/gtest.h>

#include "models/hardware/catalog.hpp"
#include "models/llm/catalog.hpp"
#include "sim/workload/chrome_import.hpp"
#include "tests/support/data_files.hpp"

namespace codesim::workload {
namespace {

using codesim::testing::kTrainTrace;

TEST(PieceModel, ConstantsAreTheFitOfTheProfileTrace) {
  const auto v3 = *llm::find_preset("deepseek-v3");
  const auto h800 = hardware::find_preset("h800")->gpu;
  const TraceFit fit = fit_trace(import_chrome_trace_file(kTrainTrace), v3, 4096, h800);
  const PieceModel pm = deepseek_profile();
  EXPECT_NEAR(pm.fit.gemm_efficiency, fit.gemm_efficiency, 1e-6);
  EXPECT_NEAR(pm.fit.attention_forward_efficiency, fit.attention_forward_efficiency, 1e-6);
  EXPECT_NEAR(pm.fit.attention_backward_efficiency, fit.attention_backward_efficiency, 1e-6);
  EXPECT_EQ(pm.fit.piece_other_us, fit.piece_other_us);
}

TEST(PieceModel, TimeIsWorkOverFittedThroughputPlusOtherKernels) {
  const auto v3 = *llm::find_preset("deepseek-v3");
  const PieceModel pm = deepseek_profile();
  const PieceContext c{.model = &v3, .gpu = pm.measured_on, .tokens = 4096, .held_sms = 20};
  // As measured (20 SMs held): mlp(F) of a MoE layer = GEMM FLOPs / (FP8 peak x e) + 1309 us.
  const PieceWork w = piece_work(v3, {PieceKind::mlp, Pass::forward}, 4096);
  const double expected =
      w.gemm_flops / (pm.measured_on.fp8_peak.value * pm.fit.gemm_efficiency) + 1309e-6;
  EXPECT_NEAR(piece_time(pm, c, {PieceKind::mlp, Pass::forward}, 10).value, expected, 1e-12);
  // Nothing held: the GEMMs get 132 SMs instead of 112.
  PieceContext free = c;
  free.held_sms = 0;
  EXPECT_NEAR(
      piece_time(pm, free, {PieceKind::mlp, Pass::forward}, 10).value,
      w.gemm_flops / (pm.measured_on.fp8_peak.value * pm.fit.gemm_efficiency) * 112 / 132 + 1309e-6,
      1e-12);
  // Twice the tokens: twice the time.
  PieceContext twice = c;
  twice.tokens = 8192;
  EXPECT_NEAR(piece_time(pm, twice, {PieceKind::mlp, Pass::forward}, 10).value, 2 * expected, 1e-9);
  // A dense layer has no router in its attention piece (and its dense FFN, 3 x 7168 x 18432,
  // matches the MoE layer's 9 active experts of 2048 exactly).
  EXPECT_LT(piece_time(pm, c, {PieceKind::attention, Pass::forward}, 0).value,
            piece_time(pm, c, {PieceKind::attention, Pass::forward}, 10).value);
  EXPECT_NEAR(piece_work(v3, {PieceKind::mlp, Pass::forward}, 4096, true).gemm_flops, w.gemm_flops,
              1e-3 * w.gemm_flops);
}

TEST(PieceModel, OtherKernelsScaleWithHbmBandwidth) {
  const auto v3 = *llm::find_preset("deepseek-v3");
  const PieceModel pm = deepseek_profile();
  const auto h200 = hardware::find_preset("h200")->gpu;  // 4.8 TB/s vs 3.35 TB/s
  const PieceContext c{.model = &v3, .gpu = h200, .tokens = 4096, .held_sms = 20};
  EXPECT_NEAR(piece_overhead(pm, c, {PieceKind::combine, Pass::backward}).value,
              270.25e-6 * 3.35 / 4.8, 1e-12);
  EXPECT_EQ(piece_overhead(pm, c, {PieceKind::dispatch, Pass::forward}).value, 0.0);
}

TEST(PieceId, TraceLabelsReadAndWriteBack) {
  for (const char* label :
       {"attn(F)", "attn(B)", "attn(W)", "mlp(F)", "mlp(W)", "dispatch(F)", "combine(B)", "send(F)",
        "recv(B)", "head(W)", "optimizer", "dp reduce-scatter", "dp all-gather"}) {
    const auto piece = parse_piece(label);
    ASSERT_TRUE(piece) << label;
    EXPECT_EQ(piece_label(*piece), label);
  }
  EXPECT_EQ(*parse_piece("mlp(B)"), (PieceId{PieceKind::mlp, Pass::backward}));
  EXPECT_FALSE(parse_piece("mlp(X)"));
  EXPECT_FALSE(parse_piece("gate(F)"));
  EXPECT_FALSE(parse_piece(""));
}

}  // namespace
}  // namespace codesim::workload
