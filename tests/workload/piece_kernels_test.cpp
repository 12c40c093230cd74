// The kernels a piece launches: shapes per pass from the op tables, the FP8 recipe's casts, the
// experts' groups, the fused attention kernel.
#include "sim/workload/piece_kernels.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "models/hardware/catalog.hpp"
#include "models/llm/catalog.hpp"

namespace codesim::workload {
namespace {

const PieceKernel* kernel_named(const std::vector<PieceKernel>& ks, const std::string& op) {
  const auto it =
      std::find_if(ks.begin(), ks.end(), [&](const PieceKernel& k) { return k.op == op; });
  return it == ks.end() ? nullptr : &*it;
}

TEST(PieceKernels, DeepSeeksRecomputationRunsBeforeItsBackwardKernels) {
  // DeepSeek-V3's recipe: the attention piece's input backward first runs again its four RMSNorms
  // (the layer's, the two latents', the MoE layer's FFN norm) and MLA's up projections with their
  // FP8 casts, as the forward runs them; the MLP's weight-gradient piece its SwiGLUs (the routed
  // and the shared experts'). Nothing is recomputed without the setting, nor in a forward.
  const auto v3 = *llm::find_preset("deepseek-v3");
  const KernelContext c{.ep = 64, .recompute_selected = true};
  const auto recomputed = [&](PieceId piece, const KernelContext& context) {
    std::vector<std::string> ops;
    for (const PieceKernel& k : piece_kernels(v3, piece, context, llm::kMoeLayer)) {
      if (k.op.starts_with("recompute ")) {
        ops.push_back(k.op);
      }
    }
    return ops;
  };
  EXPECT_EQ(
      recomputed({PieceKind::attention, Pass::backward}, c),
      (std::vector<std::string>{"recompute attn_norm", "recompute q_norm", "recompute cast q_up",
                                "recompute q_up", "recompute kv_norm", "recompute cast kv_up",
                                "recompute kv_up", "recompute ffn_norm"}));
  EXPECT_EQ(recomputed({PieceKind::mlp, Pass::weight}, c),
            (std::vector<std::string>{"recompute shared_act", "recompute experts_act"}));
  EXPECT_TRUE(recomputed({PieceKind::attention, Pass::forward}, c).empty());
  EXPECT_TRUE(recomputed({PieceKind::mlp, Pass::backward}, c).empty());
  EXPECT_TRUE(recomputed({PieceKind::attention, Pass::backward}, {.ep = 64}).empty());
  // The recomputed up projection is the forward's: m 4096, n 128 x 192, k 1536.
  const auto b = piece_kernels(v3, {PieceKind::attention, Pass::backward}, c, llm::kMoeLayer);
  const PieceKernel* q_up = kernel_named(b, "recompute q_up");
  ASSERT_NE(q_up, nullptr);
  EXPECT_EQ(std::tuple(q_up->shape.m, q_up->shape.n, q_up->shape.k),
            std::tuple(4096.0, 128.0 * 192, 1536.0));
}

TEST(PieceKernels, GemmShapesFollowThePass) {
  // q_down of DeepSeek-V3 on 4096 tokens: 4096 x 7168 -> 1536. F: m 4096, n 1536, k 7168;
  // B (input gradient): m 4096, n 7168, k 1536; W: m 7168, n 1536, k 4096.
  const auto v3 = *llm::find_preset("deepseek-v3");
  const KernelContext c{.ep = 64};
  auto shape = [&](Pass p) {
    const auto ks = piece_kernels(v3, {PieceKind::attention, p}, c, llm::kMoeLayer);
    const PieceKernel* k = kernel_named(ks, "q_down");
    EXPECT_NE(k, nullptr);
    return k->shape;
  };
  const auto f = shape(Pass::forward);
  EXPECT_EQ(f.kind, cost::KernelClass::gemm);
  EXPECT_EQ(f.dtype, cost::DType::fp8);
  EXPECT_EQ(std::tie(f.m, f.n, f.k), std::make_tuple(4096.0, 1536.0, 7168.0));
  const auto b = shape(Pass::backward);
  EXPECT_EQ(std::tie(b.m, b.n, b.k), std::make_tuple(4096.0, 7168.0, 1536.0));
  const auto w = shape(Pass::weight);
  EXPECT_EQ(std::tie(w.m, w.n, w.k), std::make_tuple(7168.0, 1536.0, 4096.0));
  EXPECT_DOUBLE_EQ(w.flops.value, 2.0 * 4096 * 7168 * 1536);
}

TEST(PieceKernels, AttentionPieceHasTheFusedKernelRotaryNormsAndRouter) {
  // MLA: 128 heads, d_qk 128 + 64, d_v 128, one causal sequence of 4096; rotary on 128 query
  // heads and the one shared key, 64 channels, read and written in BF16.
  const auto v3 = *llm::find_preset("deepseek-v3");
  const KernelContext c{.ep = 64};
  const auto ks = piece_kernels(v3, {PieceKind::attention, Pass::forward}, c, llm::kMoeLayer);
  const PieceKernel* core = kernel_named(ks, "attention_core");
  ASSERT_NE(core, nullptr);
  ASSERT_TRUE(core->attention);
  EXPECT_EQ(core->attention->heads, 128);
  EXPECT_EQ(core->attention->seq, 4096);
  EXPECT_EQ(core->attention->batch, 1);
  EXPECT_EQ(core->attention->d_qk, 192);
  EXPECT_EQ(core->attention->d_v, 128);
  EXPECT_EQ(core->attention->pass, cost::AttentionPass::forward);
  EXPECT_DOUBLE_EQ(kernel_named(ks, "rotary")->shape.bytes.value, 4096.0 * (128 + 1) * 64 * 2 * 2);
  // MoE layers: the FFN norm and the router (BF16) run before dispatch; dense layers have neither.
  EXPECT_EQ(kernel_named(ks, "router")->shape.dtype, cost::DType::bf16);
  EXPECT_NE(kernel_named(ks, "ffn_norm"), nullptr);
  const auto dense = piece_kernels(v3, {PieceKind::attention, Pass::forward}, c, llm::kDenseLayer);
  EXPECT_EQ(kernel_named(dense, "router"), nullptr);
  EXPECT_EQ(kernel_named(dense, "ffn_norm"), nullptr);
  const auto backward =
      piece_kernels(v3, {PieceKind::attention, Pass::backward}, c, llm::kMoeLayer);
  EXPECT_EQ(kernel_named(backward, "attention_core")->attention->pass,
            cost::AttentionPass::backward);
  EXPECT_EQ(kernel_named(piece_kernels(v3, {PieceKind::attention, Pass::weight}, c, llm::kMoeLayer),
                         "attention_core"),
            nullptr);
}

TEST(PieceKernels, ExpertsAreGroupedOverTheGpusExperts) {
  // EP 64: 256 / 64 = 4 experts per GPU; 4096 tokens x 8 = 32768 rows, 8192 per expert. The
  // dispatched tokens arrive in FP8 (no cast before gate_up); permute moves 32768 x 7168 FP8 in
  // and out; the shared expert's input is cast (4 bytes per element: as is and transposed).
  const auto v3 = *llm::find_preset("deepseek-v3");
  const KernelContext c{.ep = 64};
  const auto ks = piece_kernels(v3, {PieceKind::mlp, Pass::forward}, c, llm::kMoeLayer);
  const PieceKernel* up = kernel_named(ks, "experts_gate_up");
  ASSERT_NE(up, nullptr);
  EXPECT_EQ(up->shape.kind, cost::KernelClass::grouped_gemm);
  EXPECT_EQ(up->shape.group_m, (std::vector<double>{8192, 8192, 8192, 8192}));
  EXPECT_EQ(std::tie(up->shape.n, up->shape.k), std::make_tuple(4096.0, 7168.0));
  EXPECT_EQ(kernel_named(ks, "cast experts_gate_up"), nullptr);
  EXPECT_DOUBLE_EQ(kernel_named(ks, "permute")->shape.bytes.value, 32768.0 * 7168 * 2);
  EXPECT_DOUBLE_EQ(kernel_named(ks, "cast shared_gate_up")->shape.bytes.value, 4096.0 * 7168 * 4);
  // The busiest GPU's rows, when the routing plan gives them.
  KernelContext skewed = c;
  skewed.expert_rows = {9000, 8500, 8000, 7000};
  const auto sk = piece_kernels(v3, {PieceKind::mlp, Pass::forward}, skewed, llm::kMoeLayer);
  EXPECT_EQ(kernel_named(sk, "experts_down")->shape.group_m, skewed.expert_rows);
  // Weight gradient: one 4096 x 7168 product per expert over its own rows.
  const auto w = piece_kernels(v3, {PieceKind::mlp, Pass::weight}, c, llm::kMoeLayer);
  const PieceKernel* wg = kernel_named(w, "experts_gate_up");
  EXPECT_TRUE(wg->weight_gradient);
  EXPECT_EQ(std::tie(wg->shape.m, wg->shape.n), std::make_tuple(4096.0, 7168.0));
  EXPECT_EQ(wg->shape.group_k, (std::vector<double>{8192, 8192, 8192, 8192}));
  EXPECT_DOUBLE_EQ(wg->shape.flops.value, 2.0 * 32768 * 7168 * 4096);
  EXPECT_DOUBLE_EQ(wg->shape.flops.value, 2.0 * 32768 * 7168 * 4096);
}

TEST(PieceKernels, EachWeightGradientIsAddedIntoTheStepsBufferWhenAsked) {
  // GPT-3 175B over TP 8, gradients kept in BF16: 2 + 2 x 2 = 6 bytes per weight element. The MLP
  // piece's weight gradients: fc1 12288 x 49152 / 8 and fc2 49152 / 8 x 12288, each followed by
  // its add. The embedding table's: 50,257 / 8 words x 12288. With no bytes given, nothing.
  const auto gpt3 = *llm::find_preset("gpt3-175b");
  const KernelContext c{
      .tokens = 2048, .seq_len = 2048, .fp8_gemm = false, .tp = 8, .gradient_accumulation = 6};
  std::vector<std::string> adds;
  double bytes = 0;
  for (const PieceKernel& k : piece_kernels(gpt3, {PieceKind::mlp, Pass::weight}, c,
                                            llm::kDenseLayer)) {
    if (k.op.starts_with("accumulate ")) {
      adds.push_back(k.op);
      bytes += k.shape.bytes.value;
      EXPECT_EQ(k.shape.kind, cost::KernelClass::elementwise);
    }
  }
  EXPECT_EQ(adds.size(), 2U);
  EXPECT_DOUBLE_EQ(bytes, 2 * 12288.0 * 49152 / 8 * 6);
  const auto table = piece_kernels(gpt3, {PieceKind::embedding, Pass::weight}, c, llm::kDenseLayer);
  ASSERT_NE(kernel_named(table, "accumulate embedding"), nullptr);
  EXPECT_DOUBLE_EQ(kernel_named(table, "accumulate embedding")->shape.bytes.value,
                   gpt3.vocab / 8.0 * 12288 * 6);
  KernelContext none = c;
  none.gradient_accumulation = 0;
  for (const PieceKernel& k : piece_kernels(gpt3, {PieceKind::mlp, Pass::weight}, none,
                                            llm::kDenseLayer)) {
    EXPECT_FALSE(k.op.starts_with("accumulate ")) << k.op;
  }
  // Forward and input-backward pieces add nothing.
  for (const PieceKernel& k : piece_kernels(gpt3, {PieceKind::mlp, Pass::backward}, c,
                                            llm::kDenseLayer)) {
    EXPECT_FALSE(k.op.starts_with("accumulate ")) << k.op;
  }
}

TEST(PieceKernels, Bf16ModelsHaveNoCasts) {
  // Llama 3.1 405B in BF16: GQA (8 KV heads of 128), no casts; rotary on 128 query and 8 key
  // heads.
  const auto llama = *llm::find_preset("llama3.1-405b");
  const KernelContext c{.tokens = 8192, .seq_len = 8192, .fp8_gemm = false};
  const auto ks = piece_kernels(llama, {PieceKind::attention, Pass::forward}, c, llm::kDenseLayer);
  for (const auto& k : ks) {
    EXPECT_NE(k.shape.kind, cost::KernelClass::quantize) << k.op;
    EXPECT_NE(k.shape.dtype, cost::DType::fp8) << k.op;
  }
  EXPECT_DOUBLE_EQ(kernel_named(ks, "rotary")->shape.bytes.value, 8192.0 * (128 + 8) * 128 * 2 * 2);
  EXPECT_TRUE(
      piece_kernels(llama, {PieceKind::combine, Pass::backward}, c, llm::kDenseLayer).empty());
}

TEST(PieceKernels, PriceSumsTheKernelsByWhatBoundsThem) {
  const auto v3 = *llm::find_preset("deepseek-v3");
  const auto h800 = hardware::find_preset("h800")->gpu;
  const KernelParams p{cost::default_params(), cost::attention_params()};
  const auto ks =
      piece_kernels(v3, {PieceKind::attention, Pass::forward}, {.ep = 64}, llm::kMoeLayer);
  const PieceCost c = price(ks, h800, 112, p);
  EXPECT_EQ(c.kernels, static_cast<int>(ks.size()));
  EXPECT_NEAR(c.total.value, (c.gemm + c.attention + c.memory).value, 1e-15);
  const auto core = cost::predict_attention(*kernel_named(ks, "attention_core")->attention, h800,
                                            112, p.attention, p.kernel);
  EXPECT_DOUBLE_EQ(c.attention.value, core.time.value);
}

}  // namespace
}  // namespace codesim::workload
