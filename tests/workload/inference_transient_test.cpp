// An inference step's transient tensors (sim/workload/inference_transient.hpp) against the
// allocator's peak above weights and KV cache of the reference decoders: Llama-3.1-8B dims
// compiled on the H200 (models/calibration/h200/decode/h200_inference_memory.json), written as
// modules and eager on the H100 (models/calibration/h100/memory/h100_inference_memory_module.json),
// and DeepSeek-V2-Lite dims eager on the H100 (h100_inference_memory_moe.json there).
#include "sim/workload/inference_transient.hpp"

#include <gtest/gtest.h>

#include <string>
#include <nlohmann/json.hpp>

#include "models/llm/catalog.hpp"
#include "tests/support/data_files.hpp"

namespace codesim::workload {
namespace {

llm::LlmSpec llama_8b() {
  return llm::find_preset("llama3.1-8b").value_or(llm::LlmSpec{});
}

TEST(InferenceTransient, LlamaPrefillPerTokenAsTheRulesSay) {
  // h 4096, f 14336, 32 q and 8 kv heads of 128. Eager, while SwiGLU multiplies: the layer's
  // input, the residual after the attention and the FFN's norm output (3h; the attention's
  // intermediates were freed when it returned), SwiGLU's input, SiLU's output and the product
  // (2f + f + f): 69,632 elements, 139,264 bytes a token. Compiled: 2h + 2f + f = 51,200
  // elements, 102,400 bytes.
  const auto eager =
      inference_transient(llama_8b(), SoftwareStack::pytorch, {.tokens = 8192, .logit_rows = 1});
  EXPECT_DOUBLE_EQ(eager.bytes, 8192 * 139264.0);
  EXPECT_EQ(eager.where, "dense layer FFN activation");
  const auto fused =
      inference_transient(llama_8b(), SoftwareStack::fused, {.tokens = 8192, .logit_rows = 1});
  EXPECT_DOUBLE_EQ(fused.bytes, 8192 * 102400.0);
}

TEST(InferenceTransient, DecodeIsTheHeadsLogits) {
  // Per request: its residual (h), the final norm's output (h) and the BF16 logits over 128,256:
  // 2 x 8192 + 256,512 = 272,896 bytes, more than a layer's 139,264.
  const auto t = inference_transient(llama_8b(), SoftwareStack::pytorch,
                                     {.tokens = 64, .logit_rows = 64, .micro_batches = 2});
  EXPECT_EQ(t.where, "output head");
  EXPECT_DOUBLE_EQ(t.bytes, 2 * 64 * 272896.0);
}

TEST(InferenceTransient, TensorParallelKeepsItsShareOfColumns) {
  // TP 4 over the group's 4 x 2048 tokens: each GPU's own residual (2 x 2048 x h), the gathered
  // norm output (8192 x h), and a quarter of the columns of 8192 tokens: as many column elements
  // as 2048 tokens' without TP.
  const auto one = inference_transient(llama_8b(), SoftwareStack::pytorch, {.tokens = 2048});
  const auto tp4 =
      inference_transient(llama_8b(), SoftwareStack::pytorch, {.tokens = 2048, .tp = 4});
  EXPECT_DOUBLE_EQ(tp4.bytes - one.bytes, 3 * 2048 * 4096 * 2.0);
}

nlohmann::json cases(const char* file) {
  return testing::calibration_data(file).at("cases");
}

double tokens_of(const nlohmann::json& c) {
  return c.at("part") == "decode_step"
             ? c.at("batch").get<double>()
             : c.at("prompts").get<double>() * c.at("prompt_len").get<double>();
}

TEST(InferenceTransient, EveryMeasuredLlamaCaseWithinTwoAndAHalfPercent) {
  // Worst: decode at batch 64, 17.47 MB against 17.83 (exactly 17 MiB: the allocator's blocks
  // are rounded; its 1.05 MB of small tensors aside, the logits are 16.4 MB). The H200 file's
  // eager prefills ran the decoder written as one function, which keeps the attention's q/k/v,
  // roped q and k and output alive through the FFN (15,360 elements a token more than the
  // modules' measured on the H100): compared are its compiled cases, and the modules' eager ones.
  int compared = 0;
  for (const char* file : {"h200/decode/h200_inference_memory.json",
                           "h100/memory/h100_inference_memory_module.json"}) {
    const bool one_function = std::string(file).starts_with("h200");
    for (const auto& c : cases(file)) {
      const bool decode = c.at("part") == "decode_step";
      if (one_function && !decode && c.at("stack") == "eager") {
        continue;
      }
      const double tokens = tokens_of(c);
      const double rows = decode ? tokens : c.at("prompts").get<double>();
      const auto t = inference_transient(
          llama_8b(), c.at("stack") == "compiled" ? SoftwareStack::fused : SoftwareStack::pytorch,
          {.tokens = tokens, .logit_rows = rows});
      EXPECT_NEAR(t.bytes / c.at("transient_bytes").get<double>(), 1.0, 0.025) << c.dump();
      ++compared;
    }
  }
  EXPECT_EQ(compared, 22);
}

TEST(InferenceTransient, DeepSeekV2LitePrefillWithinTwoAndAHalfPercent) {
  // h 2048, top-6 of 64 experts of 1408 on one GPU, rows padded to 8 per expert: at the weighted
  // sum, 3h, the padded input rows (T x 6 + 512) x h, the SwiGLU input x 2 x 1408, the padded
  // outputs x h and three copies of the T x 6 outputs x h. Measured 363 / 1,427 / 2,847 MB.
  const auto lite = llm::find_preset("deepseek-v2-lite").value_or(llm::LlmSpec{});
  int compared = 0;
  for (const auto& c : cases("h100/memory/h100_inference_memory_moe.json")) {
    const auto t = inference_transient(
        lite, SoftwareStack::pytorch,
        {.tokens = tokens_of(c), .logit_rows = c.at("prompts").get<double>(), .local_experts = 64});
    EXPECT_EQ(t.where, "MoE layer experts' weighted sum");
    EXPECT_NEAR(t.bytes / c.at("transient_bytes").get<double>(), 1.0, 0.025) << c.dump();
    ++compared;
  }
  EXPECT_EQ(compared, 3);
}

}  // namespace
}  // namespace codesim::workload
