// Model config JSON in two formats: DeepSeek's own (`dim`, `n_layers`, ...; a closed set of keys)
// and Hugging Face's config.json, read by the reader of its family (`model_type`, or the class
// in `architectures`; config_families.hpp). Either way every key is read or known not to change
// the shapes; any other is refused.
#include "models/llm/config_json.hpp"

#include <array>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "models/llm/config_families.hpp"
#include "models/llm/config_parts.hpp"
#include "models/llm/config_reader.hpp"
#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"

namespace codesim::llm {
namespace {

using core::Diagnostic;
using nlohmann::json;

// Keys of DeepSeek's ModelArgs that do not change the simulated shapes.
constexpr std::array<std::string_view, 10> kDeepseekIgnored = {
    "mscale",           "dtype",      "scale_fmt",   "max_batch_size", "max_seq_len",
    "original_seq_len", "rope_theta", "rope_factor", "beta_fast",      "beta_slow"};

// The document, parsed; a key given twice in one object (JSON keeps the last silently, so a
// config could say two things) is refused at the second.
json parse_without_duplicates(std::string_view text, const std::string& file) {
  std::vector<std::set<std::string>> open;
  std::map<std::string, int> seen;  // a key's occurrences anywhere, to locate the repeat
  std::vector<Diagnostic> problems;
  json::parser_callback_t check = [&](int /*depth*/, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start) {
      open.emplace_back();
    } else if (event == json::parse_event_t::object_end && !open.empty()) {
      open.pop_back();
    } else if (event == json::parse_event_t::key && !open.empty()) {
      const std::string key = parsed.get<std::string>();
      const int n = seen[key]++;
      if (!open.back().insert(key).second) {
        problems.push_back(Diagnostic{key_location(text, key, file, 0, n), key,
                                      "given twice in one object", "keep one of them"});
      }
    }
    return true;
  };
  json doc = json::parse(text, check);
  if (!problems.empty()) {
    throw core::InputError(std::move(problems));
  }
  return doc;
}

json parse_json(std::string_view text, const std::string& file) {
  json doc;
  try {
    doc = parse_without_duplicates(text, file);
  } catch (const json::parse_error& e) {
    throw core::InputError(core::json_syntax_error(text, e.byte, e.what(), file));
  } catch (const json::exception& e) {  // e.g. a number too large for a double
    throw core::InputError(core::json_syntax_error(text, 0, e.what(), file));
  }
  if (!doc.is_object()) {
    throw core::InputError(
        Diagnostic{{file, 1, 1}, "", "a model config must be a JSON object", {}});
  }
  return doc;
}

// DeepSeek's inference configs (ModelArgs): always MLA; a MoE when it names routed experts.
void read_deepseek_format(ConfigReader& r, LlmSpec& m) {
  m.hidden = r.integer("dim", 1, std::nullopt);
  m.layers = r.integer("n_layers", 1, std::nullopt, kMaxLayers);
  m.heads = r.integer("n_heads", 1, std::nullopt);
  m.vocab = r.integer("vocab_size", 1, std::nullopt);
  m.ffn_inter_dim = r.integer("inter_dim", 1, std::nullopt);
  m.mtp_depth = r.integer("mtp_depth", 0, 0);
  m.attention = MlaSpec{.q_lora_rank = r.integer("q_lora_rank", 0, 0),
                        .kv_lora_rank = r.integer("kv_lora_rank", 1, std::nullopt),
                        .qk_nope_head_dim = r.integer("qk_nope_head_dim", 1, std::nullopt),
                        .qk_rope_head_dim = r.integer("qk_rope_head_dim", 1, std::nullopt),
                        .v_head_dim = r.integer("v_head_dim", 1, std::nullopt)};
  m.dense_layers = m.layers;
  if (!r.has("n_routed_experts")) {
    r.ignore(kDeepseekIgnored);
    return;
  }
  MoeSpec moe{.routed_experts = r.integer("n_routed_experts", 1, std::nullopt),
              .shared_experts = r.integer("n_shared_experts", 0, 2),
              .activated_experts = r.integer("n_activated_experts", 1, std::nullopt),
              .expert_inter_dim = r.integer("moe_inter_dim", 1, std::nullopt),
              .expert_groups = r.integer("n_expert_groups", 1, 1),
              .limited_groups = r.integer("n_limited_groups", 1, 1),
              .route_scale = r.number("route_scale", 1.0)};
  moe.score = read_score(r, "score_func");
  m.dense_layers = r.integer("n_dense_layers", 0, 1);
  check_moe(r, moe, {.experts = "n_routed_experts", .top_k = "n_activated_experts",
                     .groups = "n_expert_groups", .limited = "n_limited_groups"});
  if (m.layers > 0 && m.dense_layers > m.layers) {  // (0: n_layers already refused)
    r.error("n_dense_layers", "exceeds n_layers (" + std::to_string(m.layers) + ")");
  }
  m.moe = moe;
  r.ignore(kDeepseekIgnored);
}

// The family of a Hugging Face config: by model_type, else by its class in architectures.
const ConfigFamily& family_of(const json& doc, std::string_view text, const std::string& file) {
  const std::string supported = "codesim reads the model types " + config_family_names();
  if (doc.contains("model_type")) {
    const json& type = doc.at("model_type");
    const ConfigFamily* f =
        type.is_string() ? find_config_family(type.get<std::string>()) : nullptr;
    if (f == nullptr) {
      throw core::InputError(Diagnostic{key_location(text, "model_type", file), "model_type",
                                        "model type " + type.dump() + " is not one codesim reads",
                                        supported});
    }
    return *f;
  }
  if (doc.contains("architectures") && doc.at("architectures").is_array()) {
    for (const json& a : doc.at("architectures")) {
      if (const ConfigFamily* f =
              a.is_string() ? config_family_of_architecture(a.get<std::string>()) : nullptr) {
        return *f;
      }
    }
  }
  throw core::InputError(Diagnostic{
      {file, 1, 1},
      "",
      "not a model config codesim reads: found neither DeepSeek's 'dim' nor Hugging Face's "
      "'model_type' (or an architecture codesim knows)",
      supported + "; DeepSeek's format names the hidden size 'dim'"});
}

}  // namespace

LlmSpec parse_model_config(std::string_view text, const std::string& file) {
  const json doc = parse_json(text, file);
  std::vector<Diagnostic> problems;
  ConfigReader r(text, file, doc, "", 0, problems);
  LlmSpec m;
  if (doc.contains("dim") && !doc.contains("model_type")) {
    read_deepseek_format(r, m);
    r.refuse_unread("a DeepSeek-format config", {});
  } else {
    read_config_family(family_of(doc, text, file), r, m);
  }
  if (!problems.empty()) {
    throw core::InputError(std::move(problems));
  }
  return m;
}

LlmSpec load_model_config(const std::string& path) {
  LlmSpec m = parse_model_config(
      core::read_input_file(path, "the model config file", core::kMaxConfigBytes), path);
  m.name = std::filesystem::path(path).stem().string();
  return m;
}

}  // namespace codesim::llm
