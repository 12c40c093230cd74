// Replay: the list schedule reproduces a measurement, propagates changed times through the DAG,
// and a Chrome export reads back with every op, stream and duration.
#include "sim/workload/replay.hpp"

#include <gtest/gtest.h>

#include "models/hardware/catalog.hpp"
#include "models/llm/catalog.hpp"
#include "sim/workload/chrome_export.hpp"
#include "sim/workload/chrome_import.hpp"
#include "sim/workload/piece_model.hpp"
#include "sim/workload/trace_model.hpp"
#include "tests/support/data_files.hpp"

namespace codesim::workload {
namespace {

using codesim::testing::kTrainTrace;

Op measured(int id, int stream, double start, double dur, std::vector<int> deps = {}) {
  return Op{
      .id = id, .stream = stream, .measured_us = dur, .start_us = start, .deps = std::move(deps)};
}

TEST(Replay, MeasuredDurationsGiveTheMeasurementBack) {
  const StepTrace t = import_chrome_trace_file(kTrainTrace);
  const Timeline m = measured_timeline(t);
  const Timeline r = replay(t, m.duration_us);
  for (std::size_t i = 0; i < t.ops.size(); ++i) {
    EXPECT_NEAR(r.start_us[i], m.start_us[i], 1e-6) << i;
  }
}

TEST(Replay, ShorterOpsPullTheirDependentsForward) {
  // Stream 7: a [0, 10], b [12, 20] (2 us launch gap). Stream 27: c [10, 30] waits for a.
  // Halving a: c starts at 5; b keeps its 2 us gap after a: starts at 7.
  const StepTrace t{
      .source = "t",
      .ops = {measured(0, 7, 0, 10), measured(1, 27, 10, 20, {0}), measured(2, 7, 12, 8)}};
  const Timeline r = replay(t, {5, 20, 8});
  EXPECT_DOUBLE_EQ(r.start_us[0], 0);
  EXPECT_DOUBLE_EQ(r.start_us[1], 5);
  EXPECT_DOUBLE_EQ(r.start_us[2], 7);
}

TEST(Replay, RooflineScalingBetweenGpus) {
  // H800 -> H200: same tensor peaks, HBM 3.35 -> 4.8 TB/s; communication unchanged.
  StepTrace t{.source = "t",
              .ops = {measured(0, 7, 0, 100), measured(1, 7, 100, 100), measured(2, 27, 0, 100)}};
  t.ops[0].op_class = cost::KernelClass::grouped_gemm;
  t.ops[1].op_class = cost::KernelClass::elementwise;
  t.ops[2].op_class = cost::KernelClass::communication;
  const auto d =
      scaled_durations(t, hardware::find_preset("h800")->gpu, hardware::find_preset("h200")->gpu);
  EXPECT_DOUBLE_EQ(d[0], 100);
  EXPECT_DOUBLE_EQ(d[1], 100 * 3.35 / 4.8);
  EXPECT_DOUBLE_EQ(d[2], 100);
}

TEST(ChromeExport, ImportedBackKeepsEveryOpStreamAndDuration) {
  const StepTrace t = import_chrome_trace_file(kTrainTrace);
  const Timeline m = measured_timeline(t);
  const StepTrace back = import_chrome_trace(chrome_trace(t, m).dump(), "export.json");
  ASSERT_EQ(back.ops.size(), t.ops.size());
  for (std::size_t i = 0; i < t.ops.size(); ++i) {
    EXPECT_EQ(back.ops[i].name, t.ops[i].name);
    EXPECT_EQ(back.ops[i].stream, t.ops[i].stream);
    EXPECT_EQ(back.ops[i].op_class, t.ops[i].op_class);
    EXPECT_NEAR(*back.ops[i].measured_us, *t.ops[i].measured_us, 1e-9);
    EXPECT_NEAR(*back.ops[i].start_us, *t.ops[i].start_us, 1e-6);
  }
}

TEST(TraceModel, PieceWorkFollowsTheModel) {
  // mlp(F) of DeepSeek-V3 on one GPU, 4096 tokens, EP balanced: 4096 x 8 expert rows through
  // gate+up (7168 -> 2 x 2048) and down (2048 -> 7168), plus the shared expert on 4096 rows.
  const auto v3 = *llm::find_preset("deepseek-v3");
  const double rows = 4096.0 * 8;
  const double experts = 2 * rows * 7168 * 4096 + 2 * rows * 2048 * 7168;
  const double shared = 2 * 4096.0 * 7168 * 4096 + 2 * 4096.0 * 2048 * 7168;
  EXPECT_DOUBLE_EQ(piece_work(v3, {PieceKind::mlp, Pass::forward}, 4096).gemm_flops,
                   experts + shared);
  EXPECT_DOUBLE_EQ(piece_work(v3, {PieceKind::mlp, Pass::weight}, 4096).gemm_flops,
                   experts + shared);  // dW costs the forward
  // attn(F): causal attention core 2 x 4096 x 2048 x 128 x (192 + 128); attn(W) has none.
  EXPECT_DOUBLE_EQ(piece_work(v3, {PieceKind::attention, Pass::forward}, 4096).attention_flops,
                   2.0 * 4096 * 2048 * 128 * (192 + 128));
  EXPECT_DOUBLE_EQ(piece_work(v3, {PieceKind::attention, Pass::backward}, 4096).attention_flops,
                   2 * 2.0 * 4096 * 2048 * 128 * (192 + 128));
  EXPECT_DOUBLE_EQ(piece_work(v3, {PieceKind::attention, Pass::weight}, 4096).attention_flops, 0);
  EXPECT_DOUBLE_EQ(piece_work(v3, {PieceKind::dispatch, Pass::forward}, 4096).gemm_flops, 0);
}

TEST(TraceModel, ScalesMakeThePredictedTotalsTheMeasuredOnes) {
  // One mlp(F) GEMM kernel of 10 ms and one mlp(W) GEMM kernel of 20 ms: after the fit the
  // model predicts those times for the pieces' GEMMs.
  const auto v3 = *llm::find_preset("deepseek-v3");
  auto gemm_op = [](int id, const char* piece, double us) {
    Op op{.id = id,
          .stream = 7,
          .op_class = cost::KernelClass::grouped_gemm,
          .dtype = cost::DType::fp8,
          .measured_us = us,
          .start_us = id * 1e5};
    op.tags.piece = piece;
    op.tags.layer = 0;
    return op;
  };
  const StepTrace t{.source = "t", .ops = {gemm_op(0, "mlp(F)", 10000), gemm_op(1, "mlp(W)", 20000)}};
  const TraceSetting s = deepseek_trace_setting(v3);
  const TraceFit fit = fit_trace(t, s);
  EXPECT_NEAR(fit.pieces.at({PieceKind::mlp, Pass::forward}).predicted_gemm_us, 10000, 1e-3);
  EXPECT_NEAR(fit.pieces.at({PieceKind::mlp, Pass::weight}).predicted_gemm_us, 20000, 1e-3);
  EXPECT_DOUBLE_EQ(fit.memory_scale, 1.0);  // nothing to fit it to
  // Predicting on the GPU it was fitted on gives the measurement back; a GPU with twice the FP8
  // peak (same HBM) runs the compute-bound expert GEMMs in a little over half the time (their
  // operand loads and epilogues do not speed up with the peak).
  const KernelParams p = with_trace_scales(s.params, fit);
  EXPECT_NEAR(predicted_durations(t, s, s.gpu, p)[0], 10000.0, 1e-3);
  auto doubled = s.gpu;
  doubled.fp8_peak = doubled.fp8_peak * 2.0;
  const double faster = predicted_durations(t, s, doubled, p)[0];
  EXPECT_GT(faster, 5000.0);
  EXPECT_LT(faster, 6000.0);
}

}  // namespace
}  // namespace codesim::workload
