// Model config JSON in three spellings: DeepSeek's, Hugging Face's, and Hugging Face's GPT-2
// (`n_embd`, `n_layer`, ...). Hugging Face configs carry many keys codesim does not need, so only
// DeepSeek's format (a closed set of keys) rejects unknown keys.
#include "models/llm/config_json.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <sstream>

#include "sim/core/error.hpp"
#include "sim/core/text.hpp"

namespace codesim::llm {
namespace {

using core::Diagnostic;
using core::SourceLocation;
using nlohmann::json;

enum class Format { deepseek, hugging_face, gpt2 };

// One model field and its spelling in each format ("" = not in that format).
struct Key {
  std::string_view deepseek;
  std::string_view hugging_face;
  std::string_view gpt2 = "";
};

constexpr Key kHidden{"dim", "hidden_size", "n_embd"};
constexpr Key kLayers{"n_layers", "num_hidden_layers", "n_layer"};
constexpr Key kHeads{"n_heads", "num_attention_heads", "n_head"};
constexpr Key kVocab{"vocab_size", "vocab_size", "vocab_size"};
constexpr Key kInter{"inter_dim", "intermediate_size", "n_inner"};
constexpr Key kPositions{"", "", "n_positions"};
// Mixtral-style MoE: every layer's FFN is num_local_experts experts of intermediate_size.
constexpr Key kLocalExperts{"", "num_local_experts"};
constexpr Key kDenseLayers{"n_dense_layers", "first_k_dense_replace"};
constexpr Key kRouted{"n_routed_experts", "n_routed_experts"};
constexpr Key kShared{"n_shared_experts", "n_shared_experts"};
constexpr Key kActivated{"n_activated_experts", "num_experts_per_tok"};
constexpr Key kExpertInter{"moe_inter_dim", "moe_intermediate_size"};
constexpr Key kGroups{"n_expert_groups", "n_group"};
constexpr Key kLimited{"n_limited_groups", "topk_group"};
constexpr Key kRouteScale{"route_scale", "routed_scaling_factor"};
constexpr Key kScore{"score_func", "scoring_func"};
constexpr Key kQLora{"q_lora_rank", "q_lora_rank"};
constexpr Key kKvLora{"kv_lora_rank", "kv_lora_rank"};
constexpr Key kNope{"qk_nope_head_dim", "qk_nope_head_dim"};
constexpr Key kRope{"qk_rope_head_dim", "qk_rope_head_dim"};
constexpr Key kVHead{"v_head_dim", "v_head_dim"};
constexpr Key kKvHeads{"", "num_key_value_heads"};
constexpr Key kHeadDim{"", "head_dim"};
constexpr Key kMtp{"mtp_depth", "num_nextn_predict_layers"};
constexpr Key kTied{"", "tie_word_embeddings", "tie_word_embeddings"};

// Keys of DeepSeek's ModelArgs that do not change the simulated shapes.
constexpr std::array<std::string_view, 10> kDeepseekIgnored = {
    "mscale",           "dtype",      "scale_fmt",   "max_batch_size", "max_seq_len",
    "original_seq_len", "rope_theta", "rope_factor", "beta_fast",      "beta_slow"};

using core::location_of_offset;

class Reader {
 public:
  Reader(std::string_view text, const std::string& file, json doc, Format format)
      : text_(text), file_(file), doc_(std::move(doc)), format_(format) {}

  std::string_view name(Key k) const {
    switch (format_) {
      case Format::deepseek:
        return k.deepseek;
      case Format::hugging_face:
        return k.hugging_face;
      case Format::gpt2:
        return k.gpt2;
    }
    return k.hugging_face;
  }
  bool has(Key k) const {
    const auto n = name(k);
    return !n.empty() && doc_.contains(n) && !doc_.at(std::string(n)).is_null();
  }

  // Where "key": sits in the text (configs are flat objects, so the first match is the key).
  SourceLocation locate(std::string_view key) const {
    const std::string quoted = "\"" + std::string(key) + "\"";
    std::size_t pos = 0;
    while ((pos = text_.find(quoted, pos)) != std::string_view::npos) {
      std::size_t after = pos + quoted.size();
      while (after < text_.size() && std::isspace(static_cast<unsigned char>(text_[after]))) {
        ++after;
      }
      if (after < text_.size() && text_[after] == ':') {
        return location_of_offset(text_, pos, file_);
      }
      pos += quoted.size();
    }
    return {file_, 0, 0};
  }

  void error(std::string_view key, std::string message, std::string hint = {}) {
    problems_.push_back(
        Diagnostic{locate(key), std::string(key), std::move(message), std::move(hint)});
  }

  // An integer >= min_value; `fallback` when the key is absent (nullopt: required).
  int integer(Key k, int min_value, std::optional<int> fallback) {
    const auto n = name(k);
    if (!has(k)) {
      if (!fallback) {
        problems_.push_back(Diagnostic{{file_, 0, 0}, std::string(n), "missing required key", {}});
      }
      return fallback.value_or(0);
    }
    const json& v = doc_.at(std::string(n));
    if (!v.is_number_integer()) {
      error(n, "expected an integer, got " + describe(v));
      return 0;
    }
    const auto value = v.get<long long>();
    if (value < min_value || value > 1'000'000'000) {
      error(n, "must be between " + std::to_string(min_value) + " and 1000000000, got " +
                   std::to_string(value));
      return 0;
    }
    return static_cast<int>(value);
  }

  double number(Key k, double fallback) {
    const auto n = name(k);
    if (!has(k)) {
      return fallback;
    }
    const json& v = doc_.at(std::string(n));
    if (!v.is_number() || !(v.get<double>() > 0)) {
      error(n, "expected a positive number, got " + describe(v));
      return fallback;
    }
    return v.get<double>();
  }

  ScoreFunction score(Key k) {
    const auto n = name(k);
    if (!has(k)) {
      return ScoreFunction::softmax;
    }
    const json& v = doc_.at(std::string(n));
    if (v.is_string() && v.get<std::string>() == "sigmoid") {
      return ScoreFunction::sigmoid;
    }
    if (v.is_string() && v.get<std::string>() == "softmax") {
      return ScoreFunction::softmax;
    }
    error(n, "expected \"softmax\" or \"sigmoid\", got " + v.dump());
    return ScoreFunction::softmax;
  }

  bool boolean(Key k, bool fallback) {
    const auto n = name(k);
    if (!has(k)) {
      return fallback;
    }
    const json& v = doc_.at(std::string(n));
    if (!v.is_boolean()) {
      error(n, "expected true or false, got " + describe(v));
      return fallback;
    }
    return v.get<bool>();
  }

  void reject_unknown_deepseek_keys(std::span<const Key> known) {
    std::vector<std::string> names;
    for (const auto& k : known) {
      if (!k.deepseek.empty()) {
        names.emplace_back(k.deepseek);
      }
    }
    for (const auto& k : kDeepseekIgnored) {
      names.emplace_back(k);
    }
    for (const auto& [key, value] : doc_.items()) {
      if (std::find(names.begin(), names.end(), key) == names.end()) {
        const auto near = core::closest_match(key, names);
        error(key, "unknown key in a DeepSeek-format config",
              near.empty() ? std::string() : "did you mean '" + near + "'?");
      }
    }
  }

  std::vector<Diagnostic>& problems() { return problems_; }

 private:
  static std::string describe(const json& v) {
    if (v.is_string()) {
      return "a string " + v.dump();
    }
    if (v.is_number_float()) {
      return "the number " + v.dump();
    }
    return std::string(v.type_name()) + " " + v.dump();
  }

  std::string_view text_;
  const std::string& file_;
  json doc_;
  Format format_;
  std::vector<Diagnostic> problems_;
};

constexpr std::array kAllKeys = {kHidden,      kLayers,  kHeads,      kVocab,     kInter,
                                 kDenseLayers, kRouted,  kShared,     kActivated, kExpertInter,
                                 kGroups,      kLimited, kRouteScale, kScore,     kQLora,
                                 kKvLora,      kNope,    kRope,       kVHead,     kKvHeads,
                                 kHeadDim,     kMtp,     kTied,       kPositions, kLocalExperts};

// The document as JSON, and which format it is in.
std::pair<json, Format> read_document(std::string_view text, const std::string& file) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    throw core::InputError(core::json_syntax_error(text, e.byte, e.what(), file));
  } catch (const json::exception& e) {  // e.g. a number too large for a double
    throw core::InputError(core::json_syntax_error(text, 0, e.what(), file));
  }
  if (!doc.is_object()) {
    throw core::InputError(
        Diagnostic{{file, 1, 1}, "", "a model config must be a JSON object", {}});
  }
  if (doc.contains("hidden_size")) {
    return {std::move(doc), Format::hugging_face};
  }
  if (doc.contains("n_embd")) {
    return {std::move(doc), Format::gpt2};
  }
  if (!doc.contains("dim")) {
    throw core::InputError(
        Diagnostic{{file, 1, 1},
                   "",
                   "not a model config: found neither 'dim', 'hidden_size' nor 'n_embd'",
                   "DeepSeek's format names the hidden size 'dim', Hugging Face's 'hidden_size', "
                   "GPT-2's 'n_embd'"});
  }
  return {std::move(doc), Format::deepseek};
}

// DeepSeek's format is always MLA; Hugging Face's is MLA when it names a KV latent.
void read_attention(Reader& r, Format format, LlmSpec& m) {
  if (format == Format::deepseek || r.has(kKvLora)) {
    m.attention = MlaSpec{.q_lora_rank = r.integer(kQLora, 0, 0),
                          .kv_lora_rank = r.integer(kKvLora, 1, std::nullopt),
                          .qk_nope_head_dim = r.integer(kNope, 1, std::nullopt),
                          .qk_rope_head_dim = r.integer(kRope, 1, std::nullopt),
                          .v_head_dim = r.integer(kVHead, 1, std::nullopt)};
    return;
  }
  const int kv_heads = r.integer(kKvHeads, 1, m.heads);
  const int head_dim = r.integer(kHeadDim, 1, m.heads > 0 ? m.hidden / m.heads : 0);
  if (kv_heads > 0 && m.heads > 0 && m.heads % kv_heads != 0) {
    r.error(r.name(kKvHeads), "must divide " + std::string(r.name(kHeads)) + " (" +
                                  std::to_string(m.heads) + "), got " + std::to_string(kv_heads));
  }
  m.attention = GqaSpec{.kv_heads = kv_heads, .head_dim = head_dim};
}

// DeepSeek's and Qwen's routed experts (with groups and shared experts).
MoeSpec read_routed_experts(Reader& r, Format format, LlmSpec& m) {
  MoeSpec moe;
  moe.routed_experts = r.integer(kRouted, 1, std::nullopt);
  moe.shared_experts = r.integer(kShared, 0, format == Format::deepseek ? 2 : 0);
  moe.activated_experts = r.integer(kActivated, 1, std::nullopt);
  moe.expert_inter_dim = r.integer(kExpertInter, 1, std::nullopt);
  moe.expert_groups = r.integer(kGroups, 1, 1);
  moe.limited_groups = r.integer(kLimited, 1, 1);
  moe.route_scale = r.number(kRouteScale, 1.0);
  moe.score = r.score(kScore);
  m.dense_layers = r.integer(kDenseLayers, 0, format == Format::deepseek ? 1 : 0);
  if (moe.activated_experts > moe.routed_experts) {
    r.error(r.name(kActivated), "exceeds " + std::string(r.name(kRouted)) + " (" +
                                    std::to_string(moe.routed_experts) + ")");
  }
  if (moe.limited_groups > moe.expert_groups) {
    r.error(r.name(kLimited), "exceeds " + std::string(r.name(kGroups)) + " (" +
                                  std::to_string(moe.expert_groups) + ")");
  }
  if (moe.expert_groups > 0 && moe.routed_experts % moe.expert_groups != 0) {
    r.error(r.name(kGroups), "must divide " + std::string(r.name(kRouted)) + " (" +
                                 std::to_string(moe.routed_experts) + ")");
  }
  if (m.dense_layers > m.layers) {
    r.error(r.name(kDenseLayers),
            "exceeds " + std::string(r.name(kLayers)) + " (" + std::to_string(m.layers) + ")");
  }
  return moe;
}

void read_experts(Reader& r, Format format, LlmSpec& m) {
  if (r.has(kLocalExperts)) {
    // Mixtral: no shared expert, no groups, every layer MoE; its experts are intermediate_size.
    m.moe = MoeSpec{.routed_experts = r.integer(kLocalExperts, 1, std::nullopt),
                    .shared_experts = 0,
                    .activated_experts = r.integer(kActivated, 1, std::nullopt),
                    .expert_inter_dim = m.ffn_inter_dim};
    m.dense_layers = 0;
    if (m.moe->activated_experts > m.moe->routed_experts) {
      r.error(r.name(kActivated), "exceeds " + std::string(r.name(kLocalExperts)) + " (" +
                                      std::to_string(m.moe->routed_experts) + ")");
    }
  } else if (r.has(kRouted)) {
    m.moe = read_routed_experts(r, format, m);
  } else {
    m.dense_layers = m.layers;
  }
}

}  // namespace

LlmSpec parse_model_config(std::string_view text, const std::string& file) {
  auto [doc, format] = read_document(text, file);
  Reader r(text, file, std::move(doc), format);
  if (format == Format::deepseek) {
    r.reject_unknown_deepseek_keys(kAllKeys);
  }
  LlmSpec m;
  m.hidden = r.integer(kHidden, 1, std::nullopt);
  m.layers = r.integer(kLayers, 1, std::nullopt);
  m.heads = r.integer(kHeads, 1, std::nullopt);
  m.vocab = r.integer(kVocab, 1, std::nullopt);
  const bool gpt2 = format == Format::gpt2;
  // GPT-2: n_inner may be null, meaning 4 x n_embd; its MLP is GELU, its positions learned, its
  // head tied to the embedding unless said otherwise.
  m.ffn_inter_dim = r.integer(kInter, 1, gpt2 ? std::optional<int>(4 * m.hidden) : std::nullopt);
  m.mtp_depth = r.integer(kMtp, 0, 0);
  m.tied_embeddings = r.boolean(kTied, gpt2);
  if (gpt2) {
    m.ffn = FfnKind::gelu;
    m.learned_positions = r.integer(kPositions, 1, std::nullopt);
  }
  read_attention(r, format, m);
  read_experts(r, format, m);
  if (!r.problems().empty()) {
    throw core::InputError(std::move(r.problems()));
  }
  return m;
}

LlmSpec load_model_config(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw core::InputError(Diagnostic{{path, 0, 0}, "", "cannot read the model config file", {}});
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  LlmSpec m = parse_model_config(buffer.str(), path);
  m.name = std::filesystem::path(path).stem().string();
  return m;
}

}  // namespace codesim::llm
