// `codesim model`: model analytics as a table or JSON.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <ostream>

#include "models/llm/analytics.hpp"
#include "models/llm/catalog.hpp"
#include "models/llm/config_json.hpp"
#include "sim/cli/commands.hpp"
#include "sim/core/error.hpp"
#include "sim/core/quantity_parse.hpp"
#include "sim/core/text.hpp"
#include "sim/report/format.hpp"
#include "sim/report/schema_version.hpp"
#include "sim/report/table.hpp"

namespace codesim::cli {
namespace {

using report::fixed;

using nlohmann::ordered_json;

// Parameter and byte counts are whole numbers; print them as JSON integers.
std::int64_t count(double v) {
  return std::llround(v);
}

llm::LlmSpec resolve(const ModelOptions& o) {
  if (!o.config.empty()) {
    return llm::load_model_config(o.config);
  }
  if (auto m = llm::find_preset(o.name)) {
    return *m;
  }
  const auto names = llm::preset_names();
  const auto near = core::closest_match(o.name, names);
  throw core::InputError(
      core::Diagnostic{{"codesim model", 0, 0},
                       "",
                       "unknown model '" + o.name + "'",
                       (near.empty() ? std::string() : "did you mean '" + near + "'? ") +
                           "presets: " + core::join(names, ", ")});
}

ordered_json op_json(const llm::LayerOp& op) {
  return {{"name", op.name},
          {"class", std::string(llm::op_class_name(op.op_class))},
          {"forward_gflop", op.forward.value / 1e9},
          {"backward_input_gflop", op.backward_input.value / 1e9},
          {"backward_weight_gflop", op.backward_weight.value / 1e9},
          {"forward_bytes", count(op.forward_bytes.value)},
          {"params", count(op.params)},
          {"active_params", count(op.active_params)}};
}

ordered_json to_json(const llm::LlmSpec& m, const llm::ModelAnalytics& a,
                     const std::string& source) {
  ordered_json j;
  j["schema_version"] = report::kSchemaVersion;
  j["name"] = m.name;
  j["source"] = source;
  j["mtp_depth"] = m.mtp_depth;
  j["seq_len"] = a.seq_len;
  j["params_total"] = count(a.params_total);
  j["params_active"] = count(a.params_active);
  j["params_embedding"] = count(a.params_embedding);
  j["params_head"] = count(a.params_head);
  j["params_mtp"] = count(a.params_mtp);
  j["params_vision"] = count(a.params_vision);
  j["layer_pattern"] = llm::layer_pattern(m);
  j["kv_cache_bytes_per_token"] = count(a.kv_cache_per_token.value);
  ordered_json kinds = ordered_json::array();
  for (const auto& k : a.kv_cache_by_kind) {
    kinds.push_back({{"attention", llm::attention_name(k.attention)},
                     {"layers", k.layers},
                     {"window", k.attention.window},
                     {"bytes_per_token_per_layer", count(k.per_token_layer.value)},
                     {"bytes_per_token", count(k.per_token_layer.value * k.layers)}});
  }
  j["kv_cache_by_kind"] = kinds;
  j["forward_gflop_per_token"] = a.forward_flops_per_token.value / 1e9;
  j["training_gflop_per_token"] = a.training_flops_per_token.value / 1e9;
  j["training_gflop_per_token_noncausal"] = a.training_flops_per_token_noncausal.value / 1e9;
  j["training_gflop_per_token_mtp"] = a.training_flops_per_token_mtp.value / 1e9;
  j["flop_convention"] =
      "matrix products only (GEMMs, expert GEMMs, attention QK^T and PV), forward + input backward "
      "+ weight backward = 3 x forward, layers and output head, no embedding lookup, norms or MTP; "
      "causal attention counts seq_len/2 keys per query";
  if (const auto p = llm::published_figures(m.name); p && source == "preset") {
    ordered_json pub{{"source", p->source}};
    auto put = [&](const char* key, const std::optional<double>& v) {
      if (v) {
        pub[key] = count(*v);
      }
    };
    if (p->kv_cache_bytes_per_token) {
      pub["kv_cache_bytes_per_token"] = count(*p->kv_cache_bytes_per_token);
    }
    if (p->training_flops_per_token) {
      pub["training_gflop_per_token"] = *p->training_flops_per_token / 1e9;
    }
    put("params_total", p->params_total);
    put("params_active", p->params_active);
    j["published"] = pub;
  }
  ordered_json layers = ordered_json::array();
  for (const auto& b : a.blocks) {
    ordered_json ops = ordered_json::array();
    for (const auto& op : b.ops) {
      ops.push_back(op_json(op));
    }
    ordered_json block{{"kind", llm::block_kind_name(b.kind)}};
    if (b.first_layer >= 0) {
      block["first_layer"] = b.first_layer;
      block["last_layer"] = b.last_layer;
    }
    block["count"] = b.count();
    block["ops"] = ops;
    layers.push_back(block);
  }
  j["layers_note"] = "ops per layer for one sequence of seq_len tokens, causal attention";
  j["layers"] = layers;
  return j;
}

std::string versus(double ours, const std::optional<double>& published, double scale, int digits) {
  std::string s = fixed(ours / scale, digits);
  if (published) {
    s += "  (published " + fixed(*published / scale, digits) + ", " +
         (ours >= *published ? "+" : "") + fixed(100.0 * (ours / *published - 1.0), 1) + "%)";
  }
  return s;
}

void print_table(const llm::LlmSpec& m, const llm::ModelAnalytics& a, const std::string& source,
                 std::ostream& out) {
  const auto p = source == "preset" ? llm::published_figures(m.name) : std::nullopt;
  const auto pub = [&](auto member) { return p ? (*p).*member : std::optional<double>{}; };
  report::Table summary({"figure", "value"});
  summary.add_row({"model", m.name + " (" + source + ")"});
  summary.add_row({"layers", std::to_string(m.layers) + ": " + llm::layer_pattern(m)});
  const auto total_published = pub(&llm::PublishedFigures::params_total);
  if (a.params_vision > 0) {
    summary.add_row({"parameters, total (B)", fixed(a.params_total / 1e9, 2)});
    summary.add_row(
        {"parameters, vision tower (B, not simulated)", fixed(a.params_vision / 1e9, 2)});
    summary.add_row({"parameters, with the vision tower (B)",
                     versus(llm::published_total(a), total_published, 1e9, 2)});
  } else {
    summary.add_row({"parameters, total (B)", versus(a.params_total, total_published, 1e9, 2)});
  }
  if (p && !p->active_counts_embedding) {
    summary.add_row({"parameters, active per token (B)", fixed(a.params_active / 1e9, 2)});
    summary.add_row({"parameters, active per token without the embedding (B)",
                     versus(llm::published_active(a, *p), p->params_active, 1e9, 2)});
  } else {
    summary.add_row({"parameters, active per token (B)",
                     versus(a.params_active, pub(&llm::PublishedFigures::params_active), 1e9, 2)});
  }
  if (m.mtp_depth > 0) {
    summary.add_row({"parameters, MTP modules (B)", fixed(a.params_mtp / 1e9, 2)});
  }
  summary.add_row({"KV cache per token (B, BF16)",
                   versus(a.kv_cache_per_token.value,
                          pub(&llm::PublishedFigures::kv_cache_bytes_per_token), 1, 0)});
  if (a.kv_cache_by_kind.size() > 1 || a.kv_cache_by_kind.front().attention.window > 0) {
    for (const auto& k : a.kv_cache_by_kind) {
      summary.add_row({"  of which " + std::to_string(k.layers) + " layers " +
                           llm::attention_name(k.attention) + " (B per token" +
                           (k.attention.window > 0 ? ", up to " + std::to_string(k.attention.window) +
                                                         " tokens)"
                                                   : ")"),
                       fixed(k.per_token_layer.value * k.layers, 0)});
    }
  }
  summary.add_row({"training GFLOP/token, causal, seq " + std::to_string(a.seq_len),
                   versus(a.training_flops_per_token.value,
                          pub(&llm::PublishedFigures::training_flops_per_token), 1e9, 1)});
  summary.add_row({"training GFLOP/token, non-causal",
                   fixed(a.training_flops_per_token_noncausal.value / 1e9, 1)});
  if (m.mtp_depth > 0) {
    summary.add_row({"training GFLOP/token, MTP modules",
                     fixed(a.training_flops_per_token_mtp.value / 1e9, 1)});
  }
  out << summary.render() << "\n";
  using Align = report::Table::Align;
  report::Table ops(
      {"block", "op", "class", "fwd GFLOP", "bwd-in GFLOP", "bwd-w GFLOP", "params (M)"},
      {Align::left, Align::left, Align::left, Align::right, Align::right, Align::right,
       Align::right});
  for (const auto& b : a.blocks) {
    const std::string kind(llm::block_kind_name(b.kind));
    const std::string label = b.first_layer < 0 ? kind
                                                : kind + " " + std::to_string(b.first_layer) + "-" +
                                                      std::to_string(b.last_layer);
    for (const auto& op : b.ops) {
      ops.add_row({label, op.name, std::string(llm::op_class_name(op.op_class)),
                   fixed(op.forward.value / 1e9, 2), fixed(op.backward_input.value / 1e9, 2),
                   fixed(op.backward_weight.value / 1e9, 2), fixed(op.params / 1e6, 2)});
    }
  }
  out << "Per-layer ops, one sequence of " << a.seq_len << " tokens:\n" << ops.render();
}

}  // namespace

void run_model(const ModelOptions& o, std::ostream& out) {
  llm::LlmSpec m = resolve(o);
  const std::string source = o.config.empty() ? "preset" : o.config;
  if (o.mtp_depth) {
    m.mtp_depth = *o.mtp_depth;
  }
  const auto a = llm::analyze(m, o.seq_len);
  if (o.format == report::Format::json) {
    out << to_json(m, a, source).dump(2) << "\n";
  } else {
    print_table(m, a, source, out);
  }
}

}  // namespace codesim::cli
