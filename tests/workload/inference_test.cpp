// Inference steps: the ISCA 2.3.2 bound as published, the overlap of micro-batches on compute and
// communication, MTP, and the decode pieces' bounds.
#include "sim/workload/inference.hpp"

#include <gtest/gtest.h>

#include "models/hardware/catalog.hpp"
#include "models/llm/catalog.hpp"

namespace codesim::workload {
namespace {

using core::Seconds;

TEST(DecodeBound, IscaFiguresForInfiniBandAndNvl72) {
  // (1 B FP8 dispatch + 2 B BF16 combine, DecodeBoundSpec's defaults, as are 61 layers and 2
  // micro-batches) x 32 tokens x 9 experts x 7000 channels = 6.048 MB per
  // layer and micro-batch; over 50 GB/s that is 120.96 us, x 2 micro-batches x 61 layers =
  // 14.757 ms per token (67.8 tokens/s). Over 900 GB/s: 6.72 us, 0.8198 ms (1219.8 tokens/s).
  const auto ib = decode_bound({.tokens = 32,
                                .experts_per_token = 9,
                                .hidden = 7000,
                                .bandwidth = core::BytesPerSecond(50e9)});
  EXPECT_NEAR(ib.per_layer_transfer.value, 120.96e-6, 1e-12);
  EXPECT_NEAR(ib.tpot.value, 14.75712e-3, 1e-9);
  EXPECT_NEAR(ib.tokens_per_second, 67.76, 0.01);
  const auto nvl = decode_bound({.tokens = 32,
                                 .experts_per_token = 9,
                                 .hidden = 7000,
                                 .bandwidth = core::BytesPerSecond(900e9)});
  EXPECT_NEAR(nvl.per_layer_transfer.value, 6.72e-6, 1e-12);
  EXPECT_NEAR(nvl.tpot.value, 0.81984e-3, 1e-9);
  // With DeepSeek-V3's 7168 channels the spec gives 15.11 ms.
  EXPECT_NEAR(decode_bound({.tokens = 32,
                            .experts_per_token = 9,
                            .hidden = 7168,
                            .bandwidth = core::BytesPerSecond(50e9)})
                  .tpot.value,
              15.11e-3, 0.005e-3);
}

// `n` layers of attention 1 s each, MoE or dense, their FFN `ffn` s.
std::vector<OverlapLayer> layers(int n, bool moe, double ffn) {
  return std::vector<OverlapLayer>(static_cast<std::size_t>(n),
                                   {.attention = Seconds(1), .moe = moe, .ffn = Seconds(ffn)});
}

TEST(Overlap, TwoMicroBatchesHideOnesTransfersUnderTheOthersCompute) {
  // One MoE layer, every piece 1 s. Compute: A0 [0,1], A1 [1,2], E0 [2,3], E1 [3,4];
  // communication: D0 [1,2], D1 [2,3], C0 [3,4], C1 [4,5]. Step 5 s instead of 8 s in sequence.
  LayerPieces p{.attention = Seconds(1), .moe = Seconds(1)};
  const auto r = overlap_step(p, {.dispatch = Seconds(1),
                                  .combine = Seconds(1),
                                  .layers = layers(1, true, 1),
                                  .micro_batches = 2});
  EXPECT_DOUBLE_EQ(r.step.value, 5);
  EXPECT_DOUBLE_EQ(r.compute_busy.value, 4);
  EXPECT_DOUBLE_EQ(r.comm_busy.value, 4);
  // One micro-batch overlaps nothing: 4 s per layer.
  EXPECT_DOUBLE_EQ(overlap_step(p, {.dispatch = Seconds(1),
                                    .combine = Seconds(1),
                                    .layers = layers(1, true, 1),
                                    .micro_batches = 1})
                       .step.value,
                   4);
}

TEST(Overlap, DenseLayersAreComputeOnly) {
  // 2 dense layers x 2 micro-batches x (attention 1 + FFN 2) on one resource: 12 s.
  LayerPieces p{.attention = Seconds(1), .dense_mlp = Seconds(2)};
  const auto r = overlap_step(p, {.dispatch = Seconds(5),
                                  .combine = Seconds(5),
                                  .layers = layers(2, false, 2),
                                  .micro_batches = 2});
  EXPECT_DOUBLE_EQ(r.step.value, 12);
  EXPECT_DOUBLE_EQ(r.comm_busy.value, 0);
}

TEST(Overlap, LongTransfersBoundTheStep) {
  // Communication 2 x (3 + 3) s per layer against compute 2 x (1 + 1): a layer's transfers
  // cannot hide, so the step is at least layers x 12 s.
  LayerPieces p{.attention = Seconds(1), .moe = Seconds(1)};
  const auto r = overlap_step(p, {.dispatch = Seconds(3),
                                  .combine = Seconds(3),
                                  .layers = layers(4, true, 1),
                                  .micro_batches = 2});
  EXPECT_GE(r.step.value, 4 * 12.0);
  EXPECT_LT(r.step.value, 4 * 12.0 + 4);
}

TEST(Mtp, AcceptanceZeroIsNoMtp) {
  EXPECT_EQ(effective_tpot(Seconds(0.02), true, 0.0).value, Seconds(0.02).value);
  EXPECT_DOUBLE_EQ(effective_tpot(Seconds(0.02), true, 0.85).value, 0.02 / 1.85);
  EXPECT_EQ(effective_tpot(Seconds(0.02), false, 0.85).value, 0.02);
}

TEST(DecodePieces, FlashMlaTimeGrowsWithTheContextAndFewTokensReadOnlyTheExpertsTheyReach) {
  // Absorbed MLA decode with DeepSeek's FlashMLA: per request and cached token, 128 heads x 2 x
  // (576 + 512) FLOPs against 1152 B of latent, about 240 FLOP/B, over the H800's ridge at
  // 580 TFLOPS / 3000 GB/s = 193: compute-bound, so doubling the context adds
  // 32 requests x 128 heads x 4096 tokens x 2 x 1088 FLOPs / 580 TFLOPS = 62.9 us.
  const auto v3 = *llm::find_preset("deepseek-v3");
  InferenceSpec s{.model = &v3,
                  .gpu = hardware::find_preset("h800")->gpu,
                  .tokens = 32,
                  .context_len = 4096,
                  .tp = 4,
                  .experts_per_gpu = 1,
                  .expert_tokens = 288,
                  .shared_expert = false};
  const auto p = inference_pieces(s);
  s.context_len = 8192;
  EXPECT_NEAR(inference_pieces(s).attention.value - p.attention.value,
              32.0 * 128 * 4096 * 2 * 1088 / 580e12, 1e-12);
  // Two token-expert pairs reach round(8 (1 - (7/8)^2)) = round(1.9) = 2 of 8 hosted experts,
  // and round(2 (1 - (1/2)^2)) = round(1.5) = 2 of 2: the same two experts' weights either way.
  // Eight pairs reach round(8 (1 - (7/8)^8)) = 5 of 8: three more experts' FP8 weights,
  // 3 x 3 x 7168 x 2048 B = 132 MB, which take at least 132 MB / 3.35 TB/s = 39.4 us more.
  s.tokens = 1;
  s.expert_tokens = 2;
  s.experts_per_gpu = 8;
  const double of_eight = inference_pieces(s).moe.value;
  s.experts_per_gpu = 2;
  EXPECT_DOUBLE_EQ(inference_pieces(s).moe.value, of_eight);
  s.experts_per_gpu = 8;
  s.expert_tokens = 8;
  EXPECT_GT(inference_pieces(s).moe.value - of_eight, 3.0 * 3 * 7168 * 2048 / 3.35e12);
}

TEST(InferencePieces, AtAClockEachPieceStretchesAsItsKernelsDo) {
  // A piece of time t whose kernels' work w takes time_at(w, r) at clock ratio r runs
  // t + time_at(w, r) - w.total(): the kernels slow, the rest (host launches) does not. At r = 1
  // nothing moves.
  const auto llama = *llm::find_preset("llama3.1-8b");
  const hardware::GpuSpec h200 = hardware::find_preset("h200")->gpu;
  const InferenceSpec s{.model = &llama,
                        .gpu = h200,
                        .phase = InferencePhase::prefill,
                        .tokens = 8192,
                        .context_len = 8192,
                        .fp8_gemm = false,
                        .pieces = stack_profile(SoftwareStack::pytorch, {.inference = true})};
  const LayerPieces top = inference_pieces(s);
  const LayerPieces same = at_clock(top, 1.0, h200.power);
  EXPECT_DOUBLE_EQ(same.dense_mlp.value, top.dense_mlp.value);
  const double r = 0.8;
  const LayerPieces slow = at_clock(top, r, h200.power);
  EXPECT_NEAR(slow.dense_mlp.value,
              top.dense_mlp.value + cost::time_at(top.dense_mlp_work, r, h200.power).value -
                  top.dense_mlp_work.total().value,
              1e-12);
  EXPECT_GT(slow.dense_mlp.value, top.dense_mlp.value);
  EXPECT_GT(slow.layers.front().attention.value, top.layers.front().attention.value);
  // The step's work: every layer's attention and FFN and the head, once per micro-batch.
  EXPECT_NEAR(step_work(top, 2, true).total().value,
              2 * (32 * (top.layers.front().attention_work.total().value +
                         top.dense_mlp_work.total().value) +
                   top.head_work.total().value),
              1e-9);
}

}  // namespace
}  // namespace codesim::workload
