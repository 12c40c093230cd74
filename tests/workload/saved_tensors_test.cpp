// A layer's saved tensors (sim/workload/saved_tensors.hpp) against what autograd kept on the H200
// (models/calibration/h200/memory/h200_memory.json: memory allocated after one layer's forward,
// less before it, less its output), eager (stack pytorch) and compiled (stack fused).
#include "sim/workload/saved_tensors.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "models/llm/catalog.hpp"
#include "tests/support/data_files.hpp"

namespace codesim::workload {
namespace {

// The measured layers of tools/calibration/h200_layers.py as model specs and their setting: every
// token's top-k rows go to the GPU's local experts.
struct MeasuredLayer {
  const char* layer;
  llm::LlmSpec model;
  double tokens;
  double local_experts;
};

llm::LlmSpec model_preset(const char* name) {
  return llm::find_preset(name).value_or(llm::LlmSpec{});
}

std::vector<MeasuredLayer> measured_layers() {
  return {{"v3_ep64", model_preset("deepseek-v3"), 4096, 4},
          {"v3_ep32", model_preset("deepseek-v3"), 4096, 8},
          {"v2_lite", model_preset("deepseek-v2-lite"), 8192, 64},
          {"mixtral", model_preset("mixtral-8x7b"), 8192, 8},
          {"llama_8b", model_preset("llama3.1-8b"), 8192, 1}};
}

TEST(SavedTensors, EveryMeasuredLayerWithinOnePercent) {
  // Kept = the model's tensors less the layer's input (the previous layer's output, allocated
  // before the forward). The eager tensor lists of the same file were read to write the rules;
  // the compiled runs were not listed: their two rules (SwiGLU keeps no SiLU output, the MoE one
  // row copy fewer) were read from Llama's and V2-Lite's kept bytes, and the other three compiled
  // layers are checks.
  const auto data = testing::calibration_data("h200/memory/h200_memory.json");
  int compared = 0;
  for (const MeasuredLayer& l : measured_layers()) {
    for (const auto& run : data.at("runs")) {
      if (run.at("layer") != l.layer || run.at("checkpoint").get<bool>()) {
        continue;
      }
      const bool compiled = run.at("mode") == "compiled";
      const llm::LayerKind kind = l.model.moe ? llm::kMoeLayer : llm::kDenseLayer;
      const ActivationContext c{.tokens = l.tokens,
                                .local_experts = l.local_experts};
      const auto tensors = saved_tensors(
          l.model, kind, compiled ? SoftwareStack::fused : SoftwareStack::pytorch, c);
      const double kept = total_bytes(tensors) - tensors.front().bytes;
      EXPECT_NEAR(kept / run.at("kept").get<double>(), 1.0, 0.01)
          << l.layer << " " << run.at("mode");
      ++compared;
    }
  }
  EXPECT_EQ(compared, 10);
}

TEST(SavedTensors, LlamaLayerTensorByTensor) {
  // Llama 3.1 8B, 8192 tokens, eager: input, norm 1/rms, norm output (x 4096), q (32 x 128), k
  // and v (2 x 8 x 128), O (4096), the log-sum-exp (32 FP32), FFN norm input, 1/rms and output
  // (4096 each), SwiGLU's input (2 x 14336), SiLU's output and the down projection's input
  // (14336 each): per token 2 x (4 x 4096 + 4096 + 2048 + 4096 + 4 x 14336) + 4 x (1 + 32 + 1).
  const auto tensors =
      saved_tensors(model_preset("llama3.1-8b"), llm::kDenseLayer, SoftwareStack::pytorch,
                    {.tokens = 8192});
  const double per_token = 2.0 * (4 * 4096 + 4096 + 2048 + 4096 + 4 * 14336) + 4.0 * 34;
  EXPECT_DOUBLE_EQ(total_bytes(tensors), 8192 * per_token);
  // TP 8 with sequence parallelism divides every tensor by 8; without it the residual stream,
  // the norms' inputs and outputs (4 x 4096 x 2 + 2 x 4 bytes per token) are whole on every GPU.
  const auto tp8 = saved_tensors(model_preset("llama3.1-8b"), llm::kDenseLayer, SoftwareStack::pytorch,
                                 {.tokens = 8192, .tp = 8});
  EXPECT_NEAR(total_bytes(tp8), total_bytes(tensors) / 8, 1e-3);
  const auto no_sp = saved_tensors(model_preset("llama3.1-8b"), llm::kDenseLayer,
                                   SoftwareStack::pytorch,
                                   {.tokens = 8192, .tp = 8, .sequence_parallel = false});
  const double whole = 8192 * (4 * 4096 * 2.0 + 2 * 4.0);
  EXPECT_NEAR(total_bytes(no_sp), total_bytes(tensors) / 8 + whole * 7 / 8, 1e-3);
}

TEST(SavedTensors, DeepSeeksStackKeepsLessThanEagerPyTorch) {
  // DeepSeek-V3's MoE layer at 4096 tokens on a GPU of EP64 (4 experts, 32768 rows): DeepSeek's
  // recipe (norms and MLA up projections recomputed, FP8 and E5M6 storage, SwiGLU's output
  // recomputed) keeps about a quarter of eager PyTorch's layer.
  const auto v3 = model_preset("deepseek-v3");
  const ActivationContext c{.tokens = 4096, .local_experts = 4};
  const double eager = total_bytes(saved_tensors(v3, llm::kMoeLayer, SoftwareStack::pytorch, c));
  const double deepseek =
      total_bytes(saved_tensors(v3, llm::kMoeLayer, SoftwareStack::deepseek, c));
  EXPECT_LT(deepseek, 0.35 * eager);
  EXPECT_GT(deepseek, 0.15 * eager);
}

TEST(SavedTensors, UnfusedAttentionKeepsItsProbabilities) {
  // GPT-3 175B's layer over TP 8 without sequence parallelism, 2048 tokens: Megatron-LM's 2021
  // attention keeps the softmax's output (96 / 8 heads x 2048 keys x 2 B per token) where flash
  // attention keeps the log-sum-exp (12 x 4 B); dropout adds the probabilities' 1-byte mask and
  // the dropped probabilities (2 B), and a 1-byte mask per element of the two residual dropouts
  // (12288 wide, whole on every GPU without sequence parallelism): Korthikanti et al.'s 5as/h
  // term with its masks.
  const auto gpt3 = model_preset("gpt3-175b");
  const ActivationContext flash{.tokens = 2048, .tp = 8, .sequence_parallel = false,
                                .seq_len = 2048};
  ActivationContext unfused = flash;
  unfused.unfused_attention = true;
  const double base = total_bytes(saved_tensors(gpt3, llm::kDenseLayer, SoftwareStack::fused, flash));
  const double probabilities =
      total_bytes(saved_tensors(gpt3, llm::kDenseLayer, SoftwareStack::fused, unfused));
  EXPECT_DOUBLE_EQ(probabilities - base, 2048.0 * 12 * (2048 * 2 - 4));
  unfused.dropout = true;
  const double dropout =
      total_bytes(saved_tensors(gpt3, llm::kDenseLayer, SoftwareStack::fused, unfused));
  EXPECT_DOUBLE_EQ(dropout - probabilities, 2048.0 * (12 * 2048 * 3 + 2 * 12288));
}

TEST(SavedTensors, TheHeadKeepsItsLogits) {
  // h200_memory.json's head runs (final norm, head, cross-entropy over 8192 tokens; kept less the
  // norm's input): eager keeps the FP32 logits (8192 x 128256 x 4 B) beside the head's input
  // (8192 x 4096 x 2 B): 4269.8 MB measured; compiled the BF16 logits: 2168.6 MB.
  auto llama = model_preset("llama3.1-8b");
  for (const auto& [stack, measured] : {std::pair{SoftwareStack::pytorch, 4269835264.0},
                                        std::pair{SoftwareStack::fused, 2168554496.0}}) {
    const auto t = head_saved_tensors(llama, stack, {.tokens = 8192});
    EXPECT_NEAR((total_bytes(t) - t.front().bytes) / measured, 1.0, 0.001) << stack_name(stack);
  }
}

}  // namespace
}  // namespace codesim::workload
