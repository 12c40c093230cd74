// Model configs in DeepSeek's and Hugging Face's formats; their errors word for word.
#include "models/llm/config_json.hpp"

#include <gtest/gtest.h>

#include "models/llm/analytics.hpp"
#include "models/llm/catalog.hpp"
#include "sim/core/error.hpp"

namespace codesim::llm {
namespace {

const std::string kData = CODESIM_SOURCE_DIR "/models/llm/configs/";
const std::string kTestData = CODESIM_SOURCE_DIR "/tests/data/";

LlmSpec named(LlmSpec m, const std::string& name) {
  m.name = name;
  return m;
}

TEST(ModelConfig, DeepSeekFilesEqualThePresets) {
  EXPECT_EQ(named(load_model_config(kData + "config_671B.json"), "deepseek-v3"),
            *find_preset("deepseek-v3"));
  EXPECT_EQ(named(load_model_config(kData + "config_v3.1.json"), "deepseek-v3"),
            *find_preset("deepseek-v3"));
  EXPECT_EQ(named(load_model_config(kData + "config_236B.json"), "deepseek-v2"),
            *find_preset("deepseek-v2"));
  EXPECT_EQ(named(load_model_config(kData + "config_16B.json"), "deepseek-v2-lite"),
            *find_preset("deepseek-v2-lite"));
}

TEST(ModelConfig, HuggingFaceSpellingGivesTheSameModel) {
  LlmSpec v3 = *find_preset("deepseek-v3");
  v3.mtp_depth = 1;  // the HF config records num_nextn_predict_layers: 1
  EXPECT_EQ(named(load_model_config(kTestData + "hf_deepseek_v3_config.json"), "deepseek-v3"), v3);
  EXPECT_EQ(named(load_model_config(kTestData + "hf_llama3.1_405b_config.json"), "llama3.1-405b"),
            *find_preset("llama3.1-405b"));
}

TEST(ModelConfig, Gpt2SpellingIsAGeluModelWithLearnedPositions) {
  // GPT-2 small's config.json: n_inner null means 4 x n_embd; GELU MLP, 1024 learned positions,
  // head tied to the embedding. 124M parameters as published (biases aside: 124.3M).
  const LlmSpec m = parse_model_config(
      R"({"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "n_head": 12, "vocab_size": 50257,
          "n_positions": 1024, "n_inner": null, "activation_function": "gelu_new"})",
      "gpt2.json");
  EXPECT_EQ(m.hidden, 768);
  EXPECT_EQ(m.ffn_inter_dim, 3072);
  EXPECT_EQ(m.ffn, FfnKind::gelu);
  EXPECT_EQ(m.learned_positions, 1024);
  EXPECT_TRUE(m.tied_embeddings);
  EXPECT_EQ(std::get<GqaSpec>(m.attention), (GqaSpec{.kv_heads = 12, .head_dim = 64}));
  EXPECT_NEAR(analyze(m, 1024).params_total / 124e6, 1.0, 0.01);
}

TEST(ModelConfig, MixtralSpellingIsAMoeOnEveryLayer) {
  // Mixtral 8x7B's config.json: 8 experts of 14336, top-2, no shared expert, all 32 layers MoE.
  // Published: 46.7B parameters, 12.9B active per token.
  const LlmSpec m = parse_model_config(
      R"({"model_type": "mixtral", "hidden_size": 4096, "num_hidden_layers": 32,
          "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 32000,
          "intermediate_size": 14336, "num_local_experts": 8, "num_experts_per_tok": 2})",
      "mixtral.json");
  ASSERT_TRUE(m.moe);
  EXPECT_EQ(m.moe->routed_experts, 8);
  EXPECT_EQ(m.moe->activated_experts, 2);
  EXPECT_EQ(m.moe->shared_experts, 0);
  EXPECT_EQ(m.moe->expert_inter_dim, 14336);
  EXPECT_EQ(m.dense_layers, 0);
  const auto a = analyze(m, 4096);
  EXPECT_NEAR(a.params_total / 46.7e9, 1.0, 0.01);
  EXPECT_NEAR(a.params_active / 12.9e9, 1.0, 0.01);
}

TEST(ModelConfig, NamedAfterTheFile) {
  EXPECT_EQ(load_model_config(kData + "config_671B.json").name, "config_671B");
}

std::string error_of(const std::string& text) {
  try {
    parse_model_config(text, "m.json");
  } catch (const core::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ModelConfigErrors, WordForWord) {
  EXPECT_EQ(error_of("{\"dim\": 7168,\n \"n_layers\" 61}"),
            "m.json:2:14: error: invalid JSON: syntax error while parsing object separator - "
            "unexpected number literal; expected ':'");
  EXPECT_EQ(error_of("[1, 2]"), "m.json:1:1: error: a model config must be a JSON object");
  const std::string families =
      "codesim reads the model types dbrx, deepseek_v2, deepseek_v3, gemma, gemma2, gemma3, "
      "gemma3_text, glm4_moe, gpt2, gpt_oss, kimi_k2, llama, llama4, llama4_text, mistral, "
      "mixtral, olmo2, olmoe, phi3, phimoe, qwen2, qwen2_moe, qwen3, qwen3_moe";
  EXPECT_EQ(error_of("{\"layers\": 3}"),
            "m.json:1:1: error: not a model config codesim reads: found neither DeepSeek's 'dim' "
            "nor Hugging Face's 'model_type' (or an architecture codesim knows)\n"
            "  hint: " + families + "; DeepSeek's format names the hidden size 'dim'");
  // A Hugging Face config without its model_type is not guessed from its keys.
  EXPECT_EQ(error_of("{\"hidden_size\": 64, \"num_hidden_layers\": 2}"),
            error_of("{\"layers\": 3}"));
  EXPECT_EQ(error_of("{\"model_type\": \"qwen3_next\", \"hidden_size\": 64}"),
            "m.json:1:2: error: model_type: model type \"qwen3_next\" is not one codesim reads\n"
            "  hint: " + families);
  EXPECT_EQ(error_of("{\"model_type\": \"gpt2\", \"n_embd\": 768, \"n_layer\": 12, "
                     "\"n_head\": 12, \"vocab_size\": 50257}"),
            "m.json: error: n_positions: missing required key");
  const std::string base =
      "\"vocab_size\": 1000, \"inter_dim\": 64, \"n_layers\": 2, \"n_heads\": 4, \"kv_lora_rank\": "
      "16, "
      "\"qk_nope_head_dim\": 8, \"qk_rope_head_dim\": 8, \"v_head_dim\": 8";
  EXPECT_EQ(error_of("{\"dim\": \"7168\", " + base + "}"),
            "m.json:1:2: error: dim: expected an integer, got a string \"7168\"");
  EXPECT_EQ(error_of("{\"dim\": 64, " + base + ", \"n_head\": 3}"),
            "m.json:1:162: error: n_head: unknown key in a DeepSeek-format config\n  hint: did you "
            "mean 'n_heads'?");
  EXPECT_EQ(error_of("{\"dim\": 0, " + base + "}"),
            "m.json:1:2: error: dim: must be between 1 and 1000000000, got 0");
  EXPECT_EQ(error_of("{\"dim\": 64, \"vocab_size\": 1000}"),
            "m.json: error: n_layers: missing required key\n"
            "m.json: error: n_heads: missing required key\n"
            "m.json: error: inter_dim: missing required key\n"
            "m.json: error: kv_lora_rank: missing required key\n"
            "m.json: error: qk_nope_head_dim: missing required key\n"
            "m.json: error: qk_rope_head_dim: missing required key\n"
            "m.json: error: v_head_dim: missing required key");
  EXPECT_EQ(error_of("{\"dim\": 64, " + base +
                     ", \"n_routed_experts\": 8, \"n_activated_experts\": 9, "
                     "\"moe_inter_dim\": 32}"),
            "m.json:1:185: error: n_activated_experts: exceeds n_routed_experts (8)");
  EXPECT_EQ(error_of("{\"model_type\": \"llama\", \"hidden_size\": 64, \"num_hidden_layers\": 2, "
                     "\"num_attention_heads\": 6, \"vocab_size\": 10, \"intermediate_size\": 8, "
                     "\"num_key_value_heads\": 4}"),
            "m.json:1:136: error: num_key_value_heads: must divide num_attention_heads (6), got 4");
}

TEST(ModelConfigErrors, FamiliesRefuseWhatTheyDoNotRead) {
  const std::string qwen =
      R"({"model_type": "qwen3_moe", "hidden_size": 64, "num_hidden_layers": 2,
 "num_attention_heads": 4, "vocab_size": 100, "intermediate_size": 128, "num_experts": 8,
 "num_experts_per_tok": 2, "moe_intermediate_size": 32)";
  // A key that may change the shapes, unknown to the family: refused, not ignored.
  EXPECT_EQ(error_of(qwen + ", \"num_shared_experts\": 2}"),
            "m.json:3:57: error: num_shared_experts: unknown key in a qwen3_moe config\n"
            "  hint: codesim does not know whether it changes the model's shapes; remove it if "
            "it does not");
  EXPECT_EQ(error_of(qwen + ", \"moe_intermediate_sise\": 2}"),
            "m.json:3:57: error: moe_intermediate_sise: unknown key in a qwen3_moe config\n"
            "  hint: did you mean 'moe_intermediate_size'?");
  EXPECT_EQ(error_of(qwen + ", \"layer_types\": [\"full_attention\", \"linear_attention\"]}"),
            "m.json:3:57: error: layer_types: layer 1 is \"linear_attention\", which codesim does "
            "not model\n"
            "  hint: codesim models \"full_attention\", \"sliding_attention\" and "
            "\"chunked_attention\"");
  EXPECT_EQ(error_of(R"({"model_type": "llama4", "text_config": {"hidden_size": 64, "x": 1}})"),
            "m.json: error: text_config.num_hidden_layers: missing required key\n"
            "m.json: error: text_config.num_attention_heads: missing required key\n"
            "m.json: error: text_config.vocab_size: missing required key\n"
            "m.json: error: text_config.intermediate_size: missing required key\n"
            "m.json: error: text_config.intermediate_size_mlp: missing required key\n"
            "m.json: error: text_config.num_local_experts: missing required key\n"
            "m.json: error: text_config.num_experts_per_tok: missing required key\n"
            "m.json:1:61: error: text_config.x: unknown key in the text_config of a llama4 config\n"
            "  hint: codesim does not know whether it changes the model's shapes; remove it if "
            "it does not");
}

TEST(ModelConfigErrors, LayersBounded) {
  // A reader keeps one kind per layer: a count no model has is refused before it is allocated.
  EXPECT_EQ(error_of("{\"model_type\": \"gpt_oss\", \"num_hidden_layers\": 1000000000}"),
            "m.json: error: hidden_size: missing required key\n"
            "m.json:1:27: error: num_hidden_layers: must be between 1 and 100000, got 1000000000\n"
            "m.json: error: num_attention_heads: missing required key\n"
            "m.json: error: vocab_size: missing required key\n"
            "m.json: error: intermediate_size: missing required key\n"
            "m.json: error: num_local_experts: missing required key\n"
            "m.json: error: num_experts_per_tok: missing required key");
  // DeepSeek's own format too (it read 1e9 layers into 8 GB before); the dense-layer count is
  // not compared with a refused layer count.
  EXPECT_EQ(error_of("{\"dim\": 64, \"n_layers\": 1000000000, \"n_dense_layers\": 1, \"n_heads\": "
                     "4, \"vocab_size\": 100, \"inter_dim\": 128, \"kv_lora_rank\": 16, "
                     "\"qk_nope_head_dim\": 16, \"qk_rope_head_dim\": 8, \"v_head_dim\": 16, "
                     "\"n_routed_experts\": 4, \"n_activated_experts\": 2, \"moe_inter_dim\": 32}"),
            "m.json:1:13: error: n_layers: must be between 1 and 100000, got 1000000000");
}

TEST(ModelConfigErrors, AZeroLayerPatternIsRefusedNotDividedBy) {
  // Found by fuzz_model_config: the refused pattern was still used as a divisor.
  EXPECT_EQ(error_of("{\"model_type\": \"gemma3_text\", \"hidden_size\": 64, \"num_hidden_layers\": 2, "
                     "\"num_attention_heads\": 4, \"num_key_value_heads\": 1, \"head_dim\": 16, "
                     "\"vocab_size\": 100, \"intermediate_size\": 128, \"sliding_window\": 16, "
                     "\"sliding_window_pattern\": 0}"),
            "m.json:1:209: error: sliding_window_pattern: must be between 1 and 1000000000, got 0");
  // The same for Llama 4's MoE interleave step.
  EXPECT_EQ(error_of("{\"model_type\": \"llama4_text\", \"num_hidden_layers\": 2, "
                     "\"interleave_moe_layer_step\": 0}"),
            "m.json: error: hidden_size: missing required key\n"
            "m.json: error: num_attention_heads: missing required key\n"
            "m.json: error: vocab_size: missing required key\n"
            "m.json: error: intermediate_size: missing required key\n"
            "m.json: error: intermediate_size_mlp: missing required key\n"
            "m.json: error: num_local_experts: missing required key\n"
            "m.json: error: num_experts_per_tok: missing required key\n"
            "m.json:1:55: error: interleave_moe_layer_step: must be between 1 and 1000000000, got 0");
}

TEST(ModelConfigErrors, DuplicateKeysRefused) {
  // JSON keeps the last of two equal keys without a word: a config could say two things.
  EXPECT_EQ(error_of("{\"model_type\": \"llama\",\n \"hidden_size\": 64,\n \"hidden_size\": 128}"),
            "m.json:3:2: error: hidden_size: given twice in one object\n  hint: keep one of them");
  // The same key in two objects is no repeat.
  EXPECT_EQ(error_of("{\"dim\": 64, \"x\": {\"dim\": 1}, \"y\": {\"dim\": 2}}").find("twice"),
            std::string::npos);
}

TEST(ModelConfigErrors, NumberTooLarge) {
  // The fuzz_step_trace crash, for this reader too.
  EXPECT_EQ(error_of("{\"dim\": 1e99999}"),
            "m.json: error: invalid JSON: number overflow parsing '1e99999'");
}

TEST(ModelConfigErrors, MissingFile) {
  try {
    load_model_config("no/such/config.json");
    FAIL();
  } catch (const core::InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "no/such/config.json: error: cannot read the model config file");
  }
}

}  // namespace
}  // namespace codesim::llm
