// Loads a model config in DeepSeek's own format (dim, n_layers, ...) or Hugging Face's
// config.json format (hidden_size, num_hidden_layers, ...) into an LlmSpec.
#pragma once

#include <string>
#include <string_view>

#include "models/llm/llm_spec.hpp"

namespace codesim::llm {

// Parses config text; `file` names it in errors. Throws core::InputError listing every problem
// (file:line:col, key, what was expected).
LlmSpec parse_model_config(std::string_view text, const std::string& file);

// Reads and parses a file; the model is named after the file's stem.
LlmSpec load_model_config(const std::string& path);

}  // namespace codesim::llm
