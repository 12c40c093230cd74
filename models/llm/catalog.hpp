// Model presets: deepseek-v3, deepseek-v2, deepseek-v2-lite, qwen2.5-72b, llama3.1-405b.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

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
  std::optional<double> params_total;
  std::optional<double> params_active;
};

std::optional<PublishedFigures> published_figures(std::string_view preset);

}  // namespace codesim::llm
