// The shared pieces of the Hugging Face family readers.
#include "models/llm/config_parts.hpp"

#include <array>

namespace codesim::llm {

void read_trunk(ConfigReader& r, LlmSpec& m, bool tied) {
  m.hidden = r.integer("hidden_size", 1, std::nullopt);
  m.layers = r.integer("num_hidden_layers", 1, std::nullopt, kMaxLayers);
  m.heads = r.integer("num_attention_heads", 1, std::nullopt);
  m.vocab = r.integer("vocab_size", 1, std::nullopt);
  m.tied_embeddings = r.boolean("tie_word_embeddings", tied);
}

void read_gqa(ConfigReader& r, LlmSpec& m) {
  const int kv_heads = r.integer("num_key_value_heads", 1, m.heads);
  const int head_dim = r.integer("head_dim", 1, m.heads > 0 ? m.hidden / m.heads : 0);
  if (kv_heads > 0 && m.heads > 0 && m.heads % kv_heads != 0) {
    r.error("num_key_value_heads", "must divide num_attention_heads (" + std::to_string(m.heads) +
                                       "), got " + std::to_string(kv_heads));
  }
  m.attention = GqaSpec{.kv_heads = kv_heads, .head_dim = head_dim};
}

void read_gated_activation(ConfigReader& r, std::string_view key) {
  static constexpr std::array<std::string_view, 7> kGated = {
      "silu", "swish", "gelu", "gelu_new", "gelu_pytorch_tanh", "gelu_fast", "gelu_python"};
  r.choice(key, kGated, "silu");
}

std::vector<LayerKind> uniform_layers(const LlmSpec& m) {
  return std::vector<LayerKind>(static_cast<std::size_t>(std::max(0, m.layers)));
}

bool read_layer_types(ConfigReader& r, int window, std::vector<LayerKind>& kinds) {
  if (!r.has("layer_types")) {
    return false;
  }
  const auto types = r.strings("layer_types");
  if (types.empty()) {
    return false;
  }
  if (types.size() != kinds.size()) {
    r.error("layer_types", "lists " + std::to_string(types.size()) + " layers, the model has " +
                               std::to_string(kinds.size()));
    return true;
  }
  for (std::size_t i = 0; i < types.size(); ++i) {
    if (types[i] == "full_attention") {
      kinds[i].span = AttentionSpan::full;
    } else if (types[i] == "sliding_attention" || types[i] == "chunked_attention") {
      kinds[i].span =
          types[i] == "sliding_attention" ? AttentionSpan::sliding : AttentionSpan::chunked;
      kinds[i].window = window;
      if (window <= 0) {
        r.error("layer_types", "layer " + std::to_string(i) + " is \"" + types[i] +
                                   "\" but the config gives no window");
        return true;
      }
    } else {
      r.error("layer_types",
              "layer " + std::to_string(i) + " is \"" + types[i] + "\", which codesim does not model",
              "codesim models \"full_attention\", \"sliding_attention\" and \"chunked_attention\"");
      return true;
    }
  }
  return true;
}

MoeSpec plain_moe(int routed, int top_k, int width, int shared) {
  return MoeSpec{.routed_experts = routed,
                 .shared_experts = shared,
                 .activated_experts = top_k,
                 .expert_inter_dim = width};
}

void check_moe(ConfigReader& r, const MoeSpec& moe, const MoeKeys& keys) {
  if (moe.activated_experts > moe.routed_experts) {
    r.error(keys.top_k, "exceeds " + std::string(keys.experts) + " (" +
                            std::to_string(moe.routed_experts) + ")");
  }
  if (keys.groups.empty()) {
    return;
  }
  if (moe.limited_groups > moe.expert_groups) {
    r.error(keys.limited, "exceeds " + std::string(keys.groups) + " (" +
                              std::to_string(moe.expert_groups) + ")");
  }
  if (moe.expert_groups > 0 && moe.routed_experts % moe.expert_groups != 0) {
    r.error(keys.groups, "must divide " + std::string(keys.experts) + " (" +
                             std::to_string(moe.routed_experts) + ")");
  }
}

ScoreFunction read_score(ConfigReader& r, std::string_view key) {
  static constexpr std::array<std::string_view, 2> kScores = {"softmax", "sigmoid"};
  return r.choice(key, kScores, "softmax") == "sigmoid" ? ScoreFunction::sigmoid
                                                        : ScoreFunction::softmax;
}

bool read_layer_list(ConfigReader& r, std::string_view key, std::vector<LayerKind>& kinds,
                     bool moe) {
  if (!r.has(key)) {
    return false;
  }
  const auto list = r.integers(key);
  for (auto& k : kinds) {
    k.moe = !moe;
  }
  for (const long long i : list) {
    if (i < 0 || i >= static_cast<long long>(kinds.size())) {
      r.error(key, "names layer " + std::to_string(i) + ", the model has " +
                       std::to_string(kinds.size()) + " layers (0 to " +
                       std::to_string(kinds.size() - 1) + ")");
      return true;
    }
    kinds[static_cast<std::size_t>(i)].moe = moe;
  }
  return true;
}

void set_layer_kinds(LlmSpec& m, std::vector<LayerKind> kinds) {
  if (!m.moe) {
    for (auto& k : kinds) {
      k.moe = false;
    }
  }
  int prefix = 0;
  while (prefix < static_cast<int>(kinds.size()) && !kinds[static_cast<std::size_t>(prefix)].moe) {
    ++prefix;
  }
  m.dense_layers = prefix;
  bool deepseek_pattern = true;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    deepseek_pattern = deepseek_pattern &&
                       kinds[i] == LayerKind{.moe = m.moe.has_value() && static_cast<int>(i) >= prefix};
  }
  m.layer_kinds = deepseek_pattern ? std::vector<LayerKind>{} : std::move(kinds);
}

}  // namespace codesim::llm
