// Model presets. The DeepSeek ones carry exactly the values of DeepSeek's own configs
// (models/llm/configs/config_671B.json, config_236B.json, config_16B.json); those files do not
// record the MTP module, so mtp_depth is 0 here as there, and a training scenario sets
// model.mtp_depth: 1 as DeepSeek-V3 trained. Dense shapes: docs/model/deepseek-v3.md §1.
#include "models/llm/catalog.hpp"

#include "models/llm/config_json.hpp"
#include "models/llm/preset_configs.hpp"
#include "sim/core/named.hpp"

namespace codesim::llm {
namespace {

std::vector<LlmSpec> written_presets() {
  return {
      LlmSpec{.name = "deepseek-v3",
              .hidden = 7168,
              .layers = 61,
              .heads = 128,
              .vocab = 129280,
              .ffn_inter_dim = 18432,
              .dense_layers = 3,
              .attention = MlaSpec{.q_lora_rank = 1536,
                                   .kv_lora_rank = 512,
                                   .qk_nope_head_dim = 128,
                                   .qk_rope_head_dim = 64,
                                   .v_head_dim = 128},
              .moe = MoeSpec{.routed_experts = 256,
                             .shared_experts = 1,
                             .activated_experts = 8,
                             .expert_inter_dim = 2048,
                             .expert_groups = 8,
                             .limited_groups = 4,
                             .route_scale = 2.5,
                             .score = ScoreFunction::sigmoid}},
      LlmSpec{.name = "deepseek-v2",
              .hidden = 5120,
              .layers = 60,
              .heads = 128,
              .vocab = 102400,
              .ffn_inter_dim = 12288,
              .dense_layers = 1,
              .attention = MlaSpec{.q_lora_rank = 1536,
                                   .kv_lora_rank = 512,
                                   .qk_nope_head_dim = 128,
                                   .qk_rope_head_dim = 64,
                                   .v_head_dim = 128},
              .moe = MoeSpec{.routed_experts = 160,
                             .shared_experts = 2,
                             .activated_experts = 6,
                             .expert_inter_dim = 1536,
                             .expert_groups = 8,
                             .limited_groups = 3,
                             .route_scale = 16.0,
                             .score = ScoreFunction::softmax}},
      LlmSpec{.name = "deepseek-v2-lite",
              .hidden = 2048,
              .layers = 27,
              .heads = 16,
              .vocab = 102400,
              .ffn_inter_dim = 10944,
              .dense_layers = 1,
              .attention = MlaSpec{.q_lora_rank = 0,
                                   .kv_lora_rank = 512,
                                   .qk_nope_head_dim = 128,
                                   .qk_rope_head_dim = 64,
                                   .v_head_dim = 128},
              .moe = MoeSpec{.routed_experts = 64,
                             .shared_experts = 2,
                             .activated_experts = 6,
                             .expert_inter_dim = 1408,
                             .expert_groups = 1,
                             .limited_groups = 1,
                             .route_scale = 1.0,
                             .score = ScoreFunction::softmax}},
      LlmSpec{.name = "qwen2.5-72b",
              .hidden = 8192,
              .layers = 80,
              .heads = 64,
              .vocab = 152064,
              .ffn_inter_dim = 29568,
              .dense_layers = 80,
              .attention = GqaSpec{.kv_heads = 8, .head_dim = 128}},
      LlmSpec{.name = "llama3.1-405b",
              .hidden = 16384,
              .layers = 126,
              .heads = 128,
              .vocab = 128256,
              .ffn_inter_dim = 53248,
              .dense_layers = 126,
              .attention = GqaSpec{.kv_heads = 8, .head_dim = 128}},
      // Llama 3.1 70B and 8B (Meta's config.json on Hugging Face).
      LlmSpec{.name = "llama3.1-70b",
              .hidden = 8192,
              .layers = 80,
              .heads = 64,
              .vocab = 128256,
              .ffn_inter_dim = 28672,
              .dense_layers = 80,
              .attention = GqaSpec{.kv_heads = 8, .head_dim = 128}},
      LlmSpec{.name = "llama3.1-8b",
              .hidden = 4096,
              .layers = 32,
              .heads = 32,
              .vocab = 128256,
              .ffn_inter_dim = 14336,
              .dense_layers = 32,
              .attention = GqaSpec{.kv_heads = 8, .head_dim = 128}},
      // Mixtral 8x7B (Mistral AI's config.json on Hugging Face): 8 experts of 14336, top-2,
      // softmax router, no shared expert, GQA 32 / 8.
      LlmSpec{.name = "mixtral-8x7b",
              .hidden = 4096,
              .layers = 32,
              .heads = 32,
              .vocab = 32000,
              .ffn_inter_dim = 14336,
              .dense_layers = 0,
              .attention = GqaSpec{.kv_heads = 8, .head_dim = 128},
              .moe = MoeSpec{.routed_experts = 8,
                             .shared_experts = 0,
                             .activated_experts = 2,
                             .expert_inter_dim = 14336,
                             .expert_groups = 1,
                             .limited_groups = 1,
                             .route_scale = 1.0,
                             .score = ScoreFunction::softmax}},
      // GPT-3 175B (Brown et al. 2020, Table 2.1): 96 layers of 12288, 96 heads of 128, a 4 x
      // GELU MLP, 2048 learned positions, GPT-2's 50257-token vocabulary, tied head.
      LlmSpec{.name = "gpt3-175b",
              .hidden = 12288,
              .layers = 96,
              .heads = 96,
              .vocab = 50257,
              .ffn_inter_dim = 49152,
              .ffn = FfnKind::gelu,
              .dense_layers = 96,
              .attention = GqaSpec{.kv_heads = 96, .head_dim = 128},
              .tied_embeddings = true,
              .learned_positions = 2048},
  };
}

// The written presets, then those read from their config files (parsed once).
const std::vector<LlmSpec>& presets() {
  static const std::vector<LlmSpec> all = [] {
    std::vector<LlmSpec> out = written_presets();
    for (const PresetConfig& c : preset_configs()) {
      LlmSpec m = parse_model_config(c.text, "models/llm/configs/" + std::string(c.name) + ".json");
      m.name = std::string(c.name);
      out.push_back(std::move(m));
    }
    return out;
  }();
  return all;
}

}  // namespace

std::optional<LlmSpec> find_preset(std::string_view name) {
  return core::find_named(presets(), name);
}

std::vector<std::string> preset_names() {
  return core::names_of(presets());
}

}  // namespace codesim::llm

namespace codesim::llm {

std::optional<PublishedFigures> published_figures(std::string_view preset) {
  const std::string isca = "ISCA 2025 (arXiv 2505.09343) Tables 1-2";
  if (preset == "deepseek-v3") {
    return PublishedFigures{isca + "; V3 report: 671B total, 37B active", 70272, 250e9, 671e9,
                            37e9};
  }
  if (preset == "deepseek-v2") {
    return PublishedFigures{isca, std::nullopt, 155e9, std::nullopt, std::nullopt};
  }
  if (preset == "qwen2.5-72b") {
    return PublishedFigures{isca, 327680, 394e9, std::nullopt, std::nullopt};
  }
  if (preset == "llama3.1-405b") {
    return PublishedFigures{isca, 516096, 2448e9, std::nullopt, std::nullopt};
  }
  // Parameter counts as each publisher gives them (docs/model/model-configs.md lists them with
  // the conventions).
  const auto params = [](std::string source, double total, double active, bool embedding = true) {
    return PublishedFigures{std::move(source), std::nullopt, std::nullopt, total, active, embedding};
  };
  if (preset == "qwen3-30b-a3b") {
    return params("Qwen3 model card (Qwen/Qwen3-30B-A3B): 30.5B total, 3.3B activated", 30.5e9,
                  3.3e9);
  }
  if (preset == "qwen3-235b-a22b") {
    return params("Qwen3 model card (Qwen/Qwen3-235B-A22B): 235B total, 22B activated", 235e9,
                  22e9);
  }
  if (preset == "qwen1.5-moe-a2.7b") {
    return params("Qwen1.5-MoE-A2.7B model card: 14.3B total, 2.7B activated", 14.3e9, 2.7e9);
  }
  if (preset == "gpt-oss-20b") {
    return params("gpt-oss model card (arXiv 2508.10925) Table 1: 20.91B total, 3.61B active "
                  "(unembedding counted, embedding not)",
                  20.91e9, 3.61e9, false);
  }
  if (preset == "gpt-oss-120b") {
    return params("gpt-oss model card (arXiv 2508.10925) Table 1: 116.83B total, 5.13B active "
                  "(unembedding counted, embedding not)",
                  116.83e9, 5.13e9, false);
  }
  if (preset == "llama4-scout") {
    return params("Meta's Llama 4 model card: 109B total (vision tower included), 17B active",
                  109e9, 17e9);
  }
  if (preset == "llama4-maverick") {
    return params("Meta's Llama 4 model card: 400B total (vision tower included), 17B active",
                  400e9, 17e9);
  }
  if (preset == "kimi-k2") {
    return params("Kimi K2 tech report (arXiv 2507.20534): 1.04T total; README: 32B activated",
                  1.04e12, 32e9);
  }
  if (preset == "glm-4.5") {
    return params("GLM-4.5 README (zai-org/GLM-4.5): 355B total, 32B active", 355e9, 32e9);
  }
  if (preset == "mixtral-8x22b") {
    return params("Mistral AI's Mixtral 8x22B announcement: 141B total, 39B active", 141e9, 39e9);
  }
  return std::nullopt;
}

double published_total(const ModelAnalytics& a) {
  return a.params_total + a.params_vision;
}

double published_active(const ModelAnalytics& a, const PublishedFigures& p) {
  return p.active_counts_embedding ? a.params_active : a.params_active - a.params_embedding;
}

}  // namespace codesim::llm
