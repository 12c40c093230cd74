// The piece model: its trace scales are the fit of the DeepSeek profile trace, and a piece's time
// is its kernels' on the SMs left.
#include "sim/workload/piece_model.hpp"

#include <gtest/gtest.h>

#include "models/cost/attention_cost.hpp"
#include "models/hardware/catalog.hpp"
#include "models/llm/catalog.hpp"
#include "sim/workload/chrome_import.hpp"
#include "tests/support/data_files.hpp"

namespace codesim::workload {
namespace {

using codesim::testing::kTrainTrace;

TEST(PieceModel, ConstantsAreTheFitOfTheProfileTrace) {
  const auto v3 = *llm::find_preset("deepseek-v3");
  const TraceFit fit = fit_trace(import_chrome_trace_file(kTrainTrace), deepseek_trace_setting(v3));
  const PieceModel pm = deepseek_profile();
  EXPECT_NEAR(pm.trace.fp8_gemm_scale, fit.fp8_gemm_scale, 1e-5);
  EXPECT_NEAR(pm.trace.fp8_wgrad_scale, fit.fp8_wgrad_scale, 1e-5);
  EXPECT_NEAR(pm.trace.fp8_grouped_scale, fit.fp8_grouped_scale, 1e-5);
  EXPECT_NEAR(pm.trace.fp8_grouped_wgrad_scale, fit.fp8_grouped_wgrad_scale, 1e-5);
  EXPECT_NEAR(pm.trace.memory_scale, fit.memory_scale, 1e-5);
  // The scales act on the H200 fits and nothing else.
  EXPECT_DOUBLE_EQ(pm.params.kernel.fp8_compute_scale, pm.trace.fp8_gemm_scale);
  EXPECT_DOUBLE_EQ(pm.params.kernel.fp8_grouped_compute_scale, pm.trace.fp8_grouped_scale);
  EXPECT_DOUBLE_EQ(pm.params.fp8_grouped_wgrad_scale, pm.trace.fp8_grouped_wgrad_scale);
  EXPECT_DOUBLE_EQ(pm.params.kernel.gemm_efficiency_fp8,
                   cost::default_params().gemm_efficiency_fp8);
  EXPECT_DOUBLE_EQ(pm.params.kernel.gemm_efficiency_bf16,
                   cost::default_params().gemm_efficiency_bf16);
  EXPECT_DOUBLE_EQ(pm.params.kernel.norm_efficiency,
                   cost::default_params().norm_efficiency * pm.trace.memory_scale);
}

TEST(PieceModel, FitMakesTheTracesClassTotalsTheMeasuredOnes) {
  // Per layer: GEMMs of the F and B pieces, of the W pieces, and the other kernels.
  const auto v3 = *llm::find_preset("deepseek-v3");
  const TraceFit fit = fit_trace(import_chrome_trace_file(kTrainTrace), deepseek_trace_setting(v3));
  double gemm[2] = {0, 0};
  double other[2] = {0, 0};
  for (const auto& [piece, c] : fit.pieces) {
    const bool w = piece.pass == Pass::weight;
    gemm[0] += w ? 0 : c.predicted_gemm_us - c.measured_gemm_us;
    gemm[1] += w ? c.predicted_gemm_us - c.measured_gemm_us : 0;
    other[0] += c.predicted_other_us;
    other[1] += c.measured_other_us;
  }
  EXPECT_NEAR(gemm[0], 0, 1e-3);
  EXPECT_NEAR(gemm[1], 0, 1e-3);
  EXPECT_NEAR(other[0], other[1], 1e-3);
  // The attention kernels are not fitted: PyTorch's SDPA as the H200 and H100 fit has it against
  // DeepSeek's kernels on H800 (128 heads of MLA over 4096 tokens): forward 6.9% slower since the
  // fit took MLA's 192/128 at their mean head dimension (it was 10-17% fast on SDPA's own MLA
  // cases, h100/README.md), backward within 1%.
  for (const auto& [piece, within] :
       {std::pair{PieceId{PieceKind::attention, Pass::forward}, 0.08},
        std::pair{PieceId{PieceKind::attention, Pass::backward}, 0.05}}) {
    const PieceComparison& c = fit.pieces.at(piece);
    EXPECT_NEAR(c.predicted_attention_us / c.measured_attention_us, 1.0, within)
        << piece_label(piece);
  }
}

TEST(PieceModel, PieceTimeIsItsKernelsOnTheSmsLeft) {
  const auto v3 = *llm::find_preset("deepseek-v3");
  const PieceModel pm = deepseek_profile();
  const auto h800 = hardware::find_preset("h800")->gpu;
  const PieceContext c{.model = &v3, .gpu = h800, .kernels = {.ep = 64}, .held_sms = 20};
  const PieceId mlp_f{PieceKind::mlp, Pass::forward};
  const auto kernels = piece_kernels(v3, mlp_f, c.kernels, llm::kMoeLayer);
  double sum = 0;
  for (const auto& k : kernels) {
    ASSERT_FALSE(k.attention);
    sum += cost::predict(k.shape, h800, 112, pm.params.kernel).time.value;
  }
  EXPECT_NEAR(piece_time(pm, c, mlp_f, 10).value, sum, 1e-12);
  // Nothing held: faster, by less than 132 / 112 (memory-bound kernels keep HBM's pace).
  PieceContext free = c;
  free.held_sms = 0;
  const double ratio = sum / piece_time(pm, free, mlp_f, 10).value;
  EXPECT_GT(ratio, 1.05);
  EXPECT_LT(ratio, 132.0 / 112.0);
  // A dense layer's attention piece has neither the FFN norm nor the router.
  EXPECT_LT(piece_time(pm, c, {PieceKind::attention, Pass::forward}, 0).value,
            piece_time(pm, c, {PieceKind::attention, Pass::forward}, 10).value);
}

// Without CUDA graphs a piece takes max(device time, kernels x the host's cost per kernel): at 64
// tokens a Llama 3.1 8B attention forward is all small kernels, so the host's 36.9 us (eager,
// under autograd) per kernel is its time; at 8,192 tokens the device's time is, as with graphs.
TEST(PieceModel, WithoutCudaGraphsAPieceWaitsForTheHostToIssueItsKernels) {
  const auto m = *llm::find_preset("llama3.1-8b");
  const auto h200 = hardware::find_preset("h200")->gpu;
  const PieceId attn_f{PieceKind::attention, Pass::forward};
  const PieceModel graphed = stack_profile(SoftwareStack::pytorch);
  const PieceModel eager = stack_profile(SoftwareStack::pytorch, {.cuda_graphs = false});
  EXPECT_DOUBLE_EQ(eager.host_per_kernel.value, 36.9e-6);
  EXPECT_DOUBLE_EQ(stack_profile(SoftwareStack::pytorch, {.cuda_graphs = false, .inference = true})
                       .host_per_kernel.value,
                   32.0e-6);
  EXPECT_EQ(graphed.host_per_kernel.value, 0);

  const PieceContext small{
      .model = &m, .gpu = h200, .kernels = {.tokens = 64, .seq_len = 64, .fp8_gemm = false}};
  const PieceCost device = piece_cost(graphed, small, attn_f, llm::kDenseLayer);
  const PieceCost issued = piece_cost(eager, small, attn_f, llm::kDenseLayer);
  ASSERT_GT(device.kernels, 0);
  EXPECT_EQ(issued.kernels, device.kernels);
  EXPECT_LT(device.total.value, device.kernels * 36.9e-6);
  EXPECT_NEAR(issued.total.value, issued.kernels * 36.9e-6, 1e-12);
  EXPECT_NEAR(issued.host.value, issued.total.value - device.total.value, 1e-12);

  const PieceContext large{
      .model = &m, .gpu = h200, .kernels = {.tokens = 8192, .seq_len = 4096, .fp8_gemm = false}};
  EXPECT_DOUBLE_EQ(piece_cost(eager, large, attn_f, llm::kDenseLayer).total.value,
                   piece_cost(graphed, large, attn_f, llm::kDenseLayer).total.value);
  EXPECT_EQ(piece_cost(eager, large, attn_f, llm::kDenseLayer).host.value, 0);
}

TEST(PieceModel, CombineBackwardCastsTheGradientToFp8) {
  // 4096 tokens x 7168 channels, read in BF16 and written in FP8: 3 bytes per element at the
  // quantize efficiency, plus the fixed cost.
  const auto v3 = *llm::find_preset("deepseek-v3");
  const PieceModel pm = deepseek_profile();
  const auto h200 = hardware::find_preset("h200")->gpu;
  const PieceContext c{.model = &v3, .gpu = h200, .held_sms = 20};
  const auto& k = pm.params.kernel;
  EXPECT_NEAR(piece_overhead(pm, c, {PieceKind::combine, Pass::backward}).value,
              4096.0 * 7168 * 3 / (4.8e12 * k.quantize_efficiency) + k.launch_overhead.value,
              1e-12);
  EXPECT_EQ(piece_overhead(pm, c, {PieceKind::dispatch, Pass::forward}).value, 0.0);
  PieceContext bf16 = c;
  bf16.kernels.fp8_gemm = false;
  EXPECT_EQ(piece_overhead(pm, bf16, {PieceKind::combine, Pass::backward}).value, 0.0);
}

TEST(PieceModel, AGpuThatDoesNotExistIsItsNumbers) {
  // A custom GPU (no preset, unknown architecture): 160 SMs, twice the H800's peaks, 8 TB/s.
  // Its pieces come from these numbers alone, faster than on the H800, and the run says the
  // Hopper efficiencies are assumed for it.
  const auto v3 = *llm::find_preset("deepseek-v3");
  const PieceModel pm = deepseek_profile();
  const hardware::GpuSpec custom{.sms = 160,
                                 .bf16_peak = core::FlopsPerSecond(1978e12),
                                 .fp8_peak = core::FlopsPerSecond(3958e12),
                                 .hbm_capacity = core::Bytes(192e9),
                                 .hbm_bandwidth = core::BytesPerSecond(8e12)};
  const auto h800 = hardware::find_preset("h800")->gpu;
  const PieceContext on_custom{.model = &v3, .gpu = custom, .kernels = {.ep = 64}};
  PieceContext on_h800 = on_custom;
  on_h800.gpu = h800;
  for (const Pass pass : {Pass::forward, Pass::backward, Pass::weight}) {
    const double t = piece_time(pm, on_custom, {PieceKind::mlp, pass}, 10).value;
    const double h = piece_time(pm, on_h800, {PieceKind::mlp, pass}, 10).value;
    EXPECT_GT(t, 0.4 * h);
    EXPECT_LT(t, 0.6 * h);
  }
  const auto notes = piece_model_notes(pm, custom);
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[1].kind, core::NoteKind::assumed);
  EXPECT_EQ(piece_model_notes(pm, h800).size(), 1u);
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
