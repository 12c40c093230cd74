// Model presets: written ones (DeepSeek, Llama 3.1, Qwen2.5, Mixtral 8x7B, GPT-3) and those read
// from their published config files (models/llm/configs/, preset_configs.hpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/llm/analytics.hpp"
#include "models/llm/llm_spec.hpp"

namespace codesim::llm {

std::optional<LlmSpec> find_preset(std::string_view name);
std::vector<std::string> preset_names();

}  // namespace codesim::llm

namespace codesim::llm {

// Figures published for a preset, printed beside the simulator's own (never used by it).
struct PublishedFigures {
  std::string source;
  std::optional<double> kv_cache_bytes_per_token;
  std::optional<double> training_flops_per_token;  // FLOP, seq 4096, causal
  std::optional<double> params_total;   // with a vision tower where the model has one
  std::optional<double> params_active;
  // Whether the publisher counts the input embedding among the active parameters (OpenAI does
  // not: its active count has the output head, not the embedding table).
  bool active_counts_embedding = true;
};

// The figures codesim compares with them: the total with the vision tower (which it does not
// simulate), the active parameters as the publisher counts them.
double published_total(const ModelAnalytics& a);
double published_active(const ModelAnalytics& a, const PublishedFigures& p);

std::optional<PublishedFigures> published_figures(std::string_view preset);

}  // namespace codesim::llm
