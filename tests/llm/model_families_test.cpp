// Hugging Face configs of every family read as their publishers count them: the presets' totals
// and active parameters against the publishers' figures, every shipped config against Hugging Face
// transformers' own count, the per-layer kinds (MoE interleaving, sliding and chunked attention)
// and their KV cache. What is refused, word for word: config_json_test.cpp.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "models/llm/analytics.hpp"
#include "models/llm/catalog.hpp"
#include "models/llm/config_json.hpp"

namespace codesim::llm {
namespace {

const std::string kConfigs = CODESIM_SOURCE_DIR "/models/llm/configs/";
const std::string kFixtures = CODESIM_SOURCE_DIR "/tests/data/hf/";

LlmSpec preset_named(const std::string& name) {
  const auto m = find_preset(name);
  EXPECT_TRUE(m.has_value()) << name;
  return m.value_or(LlmSpec{});
}

// A publisher's figures for one preset: the total (vision tower included where the checkpoint
// has one), the active parameters as it counts them, and how far codesim's count may be from
// each: 1% where the figure is given to three digits or more; where it is rounded to one or two,
// what the rounding leaves (said per row).
struct Published {
  const char* preset;
  double total;
  double active;
  bool active_counts_embedding;
  double total_tolerance;
  double active_tolerance;
  const char* source;
};

constexpr Published kPublished[] = {
    {"qwen3-30b-a3b", 30.5e9, 3.3e9, true, 0.01, 0.02,
     "Qwen3 model card: 30.5B total, 3.3B activated, 29.9B non-embedding. codesim counts "
     "3.353B active: the card's 3.3B is cut, not rounded (its own 29.9B non-embedding total is "
     "matched to 0.1%, below)"},
    {"qwen3-235b-a22b", 235e9, 22e9, true, 0.01, 0.01, "Qwen3 model card: 235B, 22B activated"},
    {"qwen1.5-moe-a2.7b", 14.3e9, 2.7e9, true, 0.01, 0.01,
     "Qwen1.5-MoE-A2.7B model card: 14.3B total, 2.7B activated"},
    {"gpt-oss-20b", 20.91e9, 3.61e9, false, 0.01, 0.01,
     "gpt-oss model card (arXiv 2508.10925) Table 1: active counts the unembedding only"},
    {"gpt-oss-120b", 116.83e9, 5.13e9, false, 0.01, 0.01,
     "gpt-oss model card (arXiv 2508.10925) Table 1: active counts the unembedding only"},
    {"llama4-scout", 109e9, 17e9, true, 0.01, 0.02,
     "Meta's Llama 4 model card: 109B total with the vision tower, 17B active (two digits: "
     "codesim's 17.17B)"},
    {"llama4-maverick", 400e9, 17e9, true, 0.01, 0.02,
     "Meta's Llama 4 model card: 400B total with the vision tower, 17B active"},
    {"kimi-k2", 1.04e12, 32e9, true, 0.015, 0.03,
     "Kimi K2 tech report (arXiv 2507.20534): 1.04T total; README: 32B activated. codesim "
     "counts 1.026T (-1.3%) from the config as published, which has no MTP module (one more "
     "MoE layer, 17B, would make 1.043T); 32.9B active against a two-digit 32B"},
    {"glm-4.5", 355e9, 32e9, true, 0.01, 0.06,
     "GLM-4.5 README: 355B total, 32B active. codesim counts 33.6B active with the embedding "
     "and head, 32.1B without: the README does not say which it counts"},
    {"mixtral-8x22b", 141e9, 39e9, true, 0.01, 0.01,
     "Mistral AI's Mixtral 8x22B announcement: 141B total, 39B active"},
};

TEST(ModelFamilies, PresetsMatchTheirPublishersCounts) {
  for (const Published& p : kPublished) {
    SCOPED_TRACE(std::string(p.preset) + ": " + p.source);
    const ModelAnalytics a = analyze(preset_named(p.preset), 4096);
    const double total = a.params_total + a.params_vision;
    const double active = p.active_counts_embedding ? a.params_active
                                                    : a.params_active - a.params_embedding;
    EXPECT_NEAR(total / p.total, 1.0, p.total_tolerance) << total / 1e9;
    EXPECT_NEAR(active / p.active, 1.0, p.active_tolerance) << active / 1e9;
    // The catalog prints the same figures beside its own (codesim model).
    const auto catalog = published_figures(p.preset);
    ASSERT_TRUE(catalog.has_value());
    EXPECT_EQ(catalog->params_total, p.total);
    EXPECT_EQ(catalog->params_active, p.active);
    EXPECT_EQ(catalog->active_counts_embedding, p.active_counts_embedding);
  }
  // Qwen3-30B-A3B's non-embedding count: total less the embedding and the head, 29.9B.
  const ModelAnalytics q = analyze(preset_named("qwen3-30b-a3b"), 4096);
  EXPECT_NEAR((q.params_total - q.params_embedding - q.params_head) / 29.9e9, 1.0, 0.005);
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// Every shipped config and test fixture against Hugging Face transformers' count of the same
// config (tools/calibration/hf_param_counts.py, run on the lent machine; its output
// tests/data/hf_param_counts.json): the embedding and the head exactly; the routed experts to
// their biases (gpt-oss's); the whole model to what codesim leaves out, biases and QK norms
// (under 0.2%).
TEST(ModelFamilies, CountsEqualHuggingFaceTransformers) {
  const nlohmann::json hf = read_json(CODESIM_SOURCE_DIR "/tests/data/hf_param_counts.json");
  int compared = 0;
  for (const auto& [file, counts] : hf.at("models").items()) {
    SCOPED_TRACE(file);
    ASSERT_FALSE(counts.contains("error")) << counts.dump();
    const std::string path = std::filesystem::exists(kConfigs + file) ? kConfigs + file
                                                                      : kFixtures + file;
    const LlmSpec m = load_model_config(path);
    const ModelAnalytics a = analyze(m, 4096);
    EXPECT_EQ(a.params_embedding - m.learned_positions * m.hidden,
              counts.at("embedding").get<double>() -
                  (m.learned_positions > 0 ? m.learned_positions * m.hidden : 0));
    EXPECT_EQ(a.params_head - m.hidden, counts.at("head").get<double>());  // the final norm
    EXPECT_NEAR(a.params_vision, counts.at("vision").get<double>(), 0.5);
    double routed = 0;
    for (const auto& b : a.blocks) {
      for (const auto& op : b.ops) {
        routed += b.kind != BlockKind::mtp && op.routed_expert() && op.op_class == OpClass::grouped_gemm ? op.params * b.count()
                                                                             : 0.0;
      }
    }
    EXPECT_NEAR(routed / std::max(1.0, counts.at("routed_experts").get<double>()),
                m.moe ? 1.0 : 0.0, 0.002);
    EXPECT_NEAR((a.params_total + a.params_vision) / counts.at("total").get<double>(), 1.0, 0.002);
    ++compared;
  }
  EXPECT_EQ(compared, 23);  // the 10 presets and 13 fixtures
}

TEST(ModelFamilies, QwenMoeConfigsReadAsMoe) {
  // Qwen3-30B-A3B: 128 experts of 768, top-8, every layer MoE (decoder_sparse_step 1).
  const LlmSpec q3 = load_model_config(kConfigs + "qwen3-30b-a3b.json");
  ASSERT_TRUE(q3.moe);
  EXPECT_EQ(q3.moe->routed_experts, 128);
  EXPECT_EQ(q3.moe->activated_experts, 8);
  EXPECT_EQ(q3.moe->expert_inter_dim, 768);
  EXPECT_EQ(q3.moe->shared_experts, 0);
  EXPECT_EQ(q3.moe_layer_count(), 48);
  // Qwen1.5-MoE-A2.7B: 60 experts of 1408, top-4, a shared expert of 5632 = 4 x 1408.
  const LlmSpec q15 = load_model_config(kConfigs + "qwen1.5-moe-a2.7b.json");
  ASSERT_TRUE(q15.moe);
  EXPECT_EQ(q15.moe->routed_experts, 60);
  EXPECT_EQ(q15.moe->activated_experts, 4);
  EXPECT_EQ(q15.moe->shared_experts, 4);
  EXPECT_EQ(q15.moe->expert_inter_dim, 1408);
  // decoder_sparse_step 2 and mlp_only_layers: MoE on odd layers, layer 3 dense.
  const LlmSpec sparse = parse_model_config(
      R"({"model_type": "qwen3_moe", "hidden_size": 64, "num_hidden_layers": 6,
          "num_attention_heads": 4, "vocab_size": 100, "intermediate_size": 128,
          "num_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": 32,
          "decoder_sparse_step": 2, "mlp_only_layers": [3]})",
      "sparse.json");
  EXPECT_EQ(layer_pattern(sparse), "4 dense, full; 2 MoE, full");
  EXPECT_TRUE(sparse.is_moe_layer(1));
  EXPECT_FALSE(sparse.is_moe_layer(3));
  EXPECT_TRUE(sparse.is_moe_layer(5));
}

// Families without a shipped config, read from their shape keys (the values of the published
// config.json files) and counted against the publishers' figures.
TEST(ModelFamilies, NestedAndOtherMoeFamiliesRead) {
  // DBRX: attention and FFN under attn_config and ffn_config; 16 experts of 10752, top-4.
  // Databricks' announcement: 132B total, 36B active.
  const LlmSpec dbrx = parse_model_config(
      R"({"model_type": "dbrx", "d_model": 6144, "n_heads": 48, "n_layers": 40,
          "vocab_size": 100352, "max_seq_len": 32768,
          "attn_config": {"kv_n_heads": 8, "clip_qkv": 8, "rope_theta": 500000},
          "ffn_config": {"ffn_hidden_size": 10752, "moe_num_experts": 16, "moe_top_k": 4}})",
      "dbrx.json");
  ASSERT_TRUE(dbrx.moe);
  EXPECT_EQ(dbrx.moe->routed_experts, 16);
  EXPECT_EQ(dbrx.moe->activated_experts, 4);
  EXPECT_EQ(dbrx.moe->expert_inter_dim, 10752);
  EXPECT_EQ(std::get<GqaSpec>(dbrx.attention), (GqaSpec{.kv_heads = 8, .head_dim = 128}));
  EXPECT_NEAR(analyze(dbrx, 4096).params_total / 132e9, 1.0, 0.01);
  // Phi-3.5-MoE: 16 experts of intermediate_size 6400, top-2. Microsoft's model card: 41.9B
  // total, 6.6B active.
  const LlmSpec phimoe = parse_model_config(
      R"({"model_type": "phimoe", "hidden_size": 4096, "num_hidden_layers": 32,
          "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 32064,
          "intermediate_size": 6400, "num_local_experts": 16, "num_experts_per_tok": 2,
          "sliding_window": 131072, "lm_head_bias": true, "input_jitter_noise": 0.01})",
      "phimoe.json");
  const ModelAnalytics pa = analyze(phimoe, 4096);
  EXPECT_NEAR(pa.params_total / 41.9e9, 1.0, 0.01);
  EXPECT_NEAR(pa.params_active / 6.6e9, 1.0, 0.01);
  // OLMoE: num_experts experts of intermediate_size (not moe_intermediate_size) on every layer.
  const LlmSpec olmoe = parse_model_config(
      R"({"model_type": "olmoe", "hidden_size": 2048, "num_hidden_layers": 16,
          "num_attention_heads": 16, "vocab_size": 50304, "intermediate_size": 1024,
          "num_experts": 64, "num_experts_per_tok": 8, "clip_qkv": null})",
      "olmoe.json");
  ASSERT_TRUE(olmoe.moe);
  EXPECT_EQ(olmoe.moe->expert_inter_dim, 1024);
  EXPECT_EQ(olmoe.moe_layer_count(), 16);
}

TEST(ModelFamilies, LayerPatternsAsTheConfigsSayThem) {
  EXPECT_EQ(layer_pattern(preset_named("deepseek-v3")), "3 dense, full; 58 MoE, full");
  // gpt-oss: layer_types alternate a 128-token sliding window and full attention.
  EXPECT_EQ(layer_pattern(preset_named("gpt-oss-20b")), "12 MoE, sliding 128; 12 MoE, full");
  // Llama 4 Maverick: MoE on every 2nd layer; every 4th layer without RoPE attends fully, the
  // others within 8192-token chunks.
  EXPECT_EQ(layer_pattern(preset_named("llama4-maverick")),
            "24 dense, chunked 8192; 12 MoE, chunked 8192; 12 MoE, full, no RoPE");
  EXPECT_EQ(layer_pattern(preset_named("llama4-scout")),
            "36 MoE, chunked 8192; 12 MoE, full, no RoPE");
  // Gemma 3 1B: every 6th layer full, the others a 512-token window; Gemma 2 every other.
  EXPECT_EQ(layer_pattern(load_model_config(kFixtures + "gemma3-1b-it.json")),
            "22 dense, sliding 512; 4 dense, full");
  EXPECT_EQ(layer_pattern(load_model_config(kFixtures + "gemma2-9b.json")),
            "21 dense, sliding 4096; 21 dense, full");
  // Mistral 7B v0.1: a 4096-token window on every layer.
  EXPECT_EQ(layer_pattern(load_model_config(kFixtures + "mistral-7b-v0.1.json")),
            "32 dense, sliding 4096");
  // GLM-4.5: DeepSeek-V3's dense prefix, no layer kinds of its own.
  EXPECT_TRUE(preset_named("glm-4.5").layer_kinds.empty());
}

TEST(ModelFamilies, KvCacheByLayerKindIsTheHandCount) {
  // gpt-oss-20b: 8 KV heads of 64 per layer, K and V in BF16: 2 x 8 x 64 x 2 = 2048 B per token
  // and layer; 12 layers keep the last 128 tokens, 12 the whole context.
  const LlmSpec oss = preset_named("gpt-oss-20b");
  const double layer = 2.0 * 8 * 64 * 2;
  const auto kinds = kv_cache_by_kind(oss);
  ASSERT_EQ(kinds.size(), 2U);
  EXPECT_EQ(kinds[0].layers, 12);
  EXPECT_EQ(kinds[0].attention.window, 128);
  EXPECT_EQ(kinds[0].per_token_layer.value, layer);
  EXPECT_EQ(kv_cache_bytes_per_token(oss).value, 24 * layer);
  EXPECT_EQ(kv_cache_bytes(oss, 100).value, 24 * layer * 100);  // inside every window
  EXPECT_EQ(kv_cache_bytes(oss, 4096).value, 12 * layer * 128 + 12 * layer * 4096);
  // Llama 4 Scout: 8 KV heads of 128: 4096 B per token and layer; 36 chunked layers keep at most
  // one 8192-token chunk, 12 the whole context.
  const LlmSpec scout = preset_named("llama4-scout");
  EXPECT_EQ(kv_cache_bytes(scout, 100000).value, 36 * 4096.0 * 8192 + 12 * 4096.0 * 100000);
  // MLA (DeepSeek-V3): the latent and the RoPE key, (512 + 64) x 2 B per layer, every layer full.
  EXPECT_EQ(kv_cache_bytes(preset_named("deepseek-v3"), 1000).value, 61 * 576 * 2.0 * 1000);
}

TEST(ModelFamilies, SlidingWindowsCountTheKeysTheyAttend) {
  // Causal attention over s tokens: s/2 keys per query (the triangle); a sliding window w < s:
  // the first w queries a triangle, the rest w each: (w^2/2 + (s - w) w) / s = w - w^2 / (2 s);
  // chunks of w: each its own triangle, w/2 when w divides s.
  const LayerKind sliding{.span = AttentionSpan::sliding, .window = 128};
  const LayerKind chunked{.span = AttentionSpan::chunked, .window = 1024};
  EXPECT_DOUBLE_EQ(attended_keys(kDenseLayer, 4096, true), 2048);
  EXPECT_DOUBLE_EQ(attended_keys(sliding, 4096, true), 128 - 128.0 * 128 / (2 * 4096));
  EXPECT_DOUBLE_EQ(attended_keys(sliding, 100, true), 50);  // the window reaches every key
  EXPECT_DOUBLE_EQ(attended_keys(chunked, 4096, true), 512);
  // 5000 = 4 x 1024 + 904: (4 x 1024^2 + 904^2) / 2 / 5000.
  EXPECT_DOUBLE_EQ(attended_keys(chunked, 5000, true), (4.0 * 1024 * 1024 + 904.0 * 904) / 2 / 5000);
  // gpt-oss-20b's attention FLOPs per token: 2 x keys x heads x (d_qk + d_v) per layer.
  const LlmSpec oss = preset_named("gpt-oss-20b");
  const double per_key = 2.0 * 64 * (64 + 64);
  const double expected = 12 * per_key * attended_keys(sliding, 4096, true) + 12 * per_key * 2048;
  double attention = 0;
  for (const auto& b : analyze(oss, 4096).blocks) {
    for (const auto& op : b.ops) {
      attention += op.op_class == OpClass::attention ? op.forward.value * b.count() : 0.0;
    }
  }
  EXPECT_NEAR(attention / 4096, expected, 1e-6 * expected);
}

TEST(ModelFamilies, EveryFixtureReads) {
  int read = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kFixtures)) {
    SCOPED_TRACE(entry.path().string());
    EXPECT_NO_THROW(load_model_config(entry.path().string()));
    ++read;
  }
  EXPECT_EQ(read, 13);
}

}  // namespace
}  // namespace codesim::llm
