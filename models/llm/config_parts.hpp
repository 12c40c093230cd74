// Pieces the family readers of Hugging Face configs share: the trunk (hidden size, layers, heads,
// vocabulary, GQA), the FFN's activation, per-layer attention spans, MoE layer patterns.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "models/llm/config_reader.hpp"
#include "models/llm/llm_spec.hpp"

namespace codesim::llm {

// At most this many layers: a reader keeps one kind per layer (the largest published model has
// under 200).
constexpr int kMaxLayers = 100'000;

// hidden_size, num_hidden_layers, num_attention_heads, vocab_size, tie_word_embeddings (default
// `tied`), and grouped-query attention (num_key_value_heads, head_dim).
void read_trunk(ConfigReader& r, LlmSpec& m, bool tied);
void read_gqa(ConfigReader& r, LlmSpec& m);

// The FFN's activation under `key`: every family here gates it (SwiGLU, or GeGLU of the same
// shapes), so it only has to be one of the known names.
void read_gated_activation(ConfigReader& r, std::string_view key);

// One kind per layer: every layer full, dense.
std::vector<LayerKind> uniform_layers(const LlmSpec& m);

// Hugging Face's `layer_types` ("full_attention", "sliding_attention", "chunked_attention") into
// the kinds' spans, with `window` for the sliding and chunked ones; false when absent.
bool read_layer_types(ConfigReader& r, int window, std::vector<LayerKind>& kinds);

// `sliding_window` (null or absent: none) as a window of every layer whose index `applies` says.
template <class Applies>
void slide_layers(std::vector<LayerKind>& kinds, int window, Applies applies) {
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    if (window > 0 && applies(static_cast<int>(i))) {
      kinds[i].span = AttentionSpan::sliding;
      kinds[i].window = window;
    }
  }
}

// A MoE of `routed` experts of `width`, top-k, no groups, softmax scores.
MoeSpec plain_moe(int routed, int top_k, int width, int shared = 0);

// The names a config gives a MoE's counts, for the errors that check them ("" where it has none).
struct MoeKeys {
  std::string_view experts;
  std::string_view top_k;
  std::string_view groups = "";
  std::string_view limited = "";
};

// Top-k within the experts; the limited groups within the groups, which divide the experts.
void check_moe(ConfigReader& r, const MoeSpec& moe, const MoeKeys& keys);

// A router's score function under `key`: "softmax" (also when absent) or "sigmoid".
ScoreFunction read_score(ConfigReader& r, std::string_view key);

// The MoE layers are those the list names (`key`, indices); false when absent.
bool read_layer_list(ConfigReader& r, std::string_view key, std::vector<LayerKind>& kinds,
                     bool moe);

// Sets the kinds on the model: dense_layers = the leading dense layers (a dense model: all), and
// layer_kinds only where they differ from DeepSeek's pattern (dense prefix, then MoE, all full).
void set_layer_kinds(LlmSpec& m, std::vector<LayerKind> kinds);

}  // namespace codesim::llm
