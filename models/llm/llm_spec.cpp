// Per-layer kinds of a model and the attention spans' key and cache counts.
#include "models/llm/llm_spec.hpp"

#include <algorithm>
#include <cmath>

namespace codesim::llm {

double attended_keys(const LayerKind& layer, int seq_len, bool causal) {
  const double s = seq_len;
  const double w = layer.window;
  if (layer.span == AttentionSpan::full || w <= 0 || w >= s) {
    return causal ? s / 2.0 : s;
  }
  if (layer.span == AttentionSpan::sliding) {
    // Causal: the first w queries see a growing triangle (w^2 / 2 pairs), the other s - w a
    // full window each.
    return causal ? w - w * w / (2.0 * s) : w;
  }
  // Chunked: floor(s / w) whole chunks and a remainder r, each its own triangle (or square).
  const double whole = std::floor(s / w);
  const double r = s - whole * w;
  const double pairs = whole * w * w + r * r;
  return (causal ? pairs / 2.0 : pairs) / s;
}

double cached_tokens(const LayerKind& layer, double context) {
  if (layer.span == AttentionSpan::full || layer.window <= 0) {
    return context;
  }
  return std::min(context, static_cast<double>(layer.window));
}

std::string attention_name(const LayerKind& layer) {
  std::string name = "full";
  if (layer.span == AttentionSpan::sliding) {
    name = "sliding " + std::to_string(layer.window);
  } else if (layer.span == AttentionSpan::chunked) {
    name = "chunked " + std::to_string(layer.window);
  }
  return layer.rope ? name : name + ", no RoPE";
}

LayerKind LlmSpec::layer(int index) const {
  if (!layer_kinds.empty()) {
    LayerKind k = layer_kinds.at(static_cast<std::size_t>(index));
    k.moe = k.moe && moe.has_value();
    return k;
  }
  return LayerKind{.moe = moe.has_value() && index >= dense_layers};
}

int LlmSpec::moe_layer_count() const {
  int n = 0;
  for (int l = 0; l < layers; ++l) {
    n += is_moe_layer(l) ? 1 : 0;
  }
  return n;
}

}  // namespace codesim::llm
