// Per-layer expert counts from JSON, checked and normalized.
#include "sim/workload/expert_shares.hpp"

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"
#include "sim/workload/json_locate.hpp"

namespace codesim::workload {
namespace {

using nlohmann::json;

constexpr std::uintmax_t kMaxBytes = std::uintmax_t{64} << 20;

}  // namespace

std::vector<std::vector<double>> parse_expert_counts(const std::string& text,
                                                     const std::string& file, int moe_layers,
                                                     int experts) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw core::InputError(core::json_syntax_error(text, e.byte, e.what(), file));
  } catch (const json::exception& e) {
    throw core::InputError(core::json_syntax_error(text, 0, e.what(), file));
  }
  auto fail = [&](core::SourceLocation where, const std::string& key, const std::string& message) {
    throw core::InputError(core::Diagnostic{std::move(where), key, message, ""});
  };
  if (!j.is_object() || !j.contains("layers") || !j["layers"].is_array()) {
    fail({file, 1, 1}, "layers",
         "expected an object with \"layers\": a list of expert counts per MoE layer");
  }
  const json& layers = j["layers"];
  const std::vector<std::size_t> offsets = array_element_offsets(text, "layers");
  auto where = [&](std::size_t i) {
    return i < offsets.size() ? core::location_of_offset(text, offsets[i], file)
                              : core::SourceLocation{file, 1, 1};
  };
  if (layers.size() != static_cast<std::size_t>(moe_layers)) {
    fail({file, 1, 1}, "layers",
         "has " + std::to_string(layers.size()) + " lists of expert counts; the model has " +
             std::to_string(moe_layers) + " MoE layers");
  }
  std::vector<std::vector<double>> shares;
  for (std::size_t l = 0; l < layers.size(); ++l) {
    const std::string key = "layers[" + std::to_string(l) + "]";
    const json& counts = layers[l];
    if (!counts.is_array() || counts.size() != static_cast<std::size_t>(experts)) {
      fail(where(l), key,
           "expected a list of " + std::to_string(experts) +
               " counts (one per routed expert), got " +
               (counts.is_array() ? std::to_string(counts.size()) + " entries"
                                  : counts.type_name()));
    }
    std::vector<double> layer;
    double total = 0;
    for (std::size_t e = 0; e < counts.size(); ++e) {
      const json& c = counts[e];
      if (!c.is_number() || !std::isfinite(c.get<double>()) || c.get<double>() < 0) {
        fail(where(l), key + "[" + std::to_string(e) + "]",
             "expected a count of at least 0, got " + c.dump());
      }
      layer.push_back(c.get<double>());
      total += layer.back();
    }
    if (!(total > 0) || !std::isfinite(total)) {
      fail(where(l), key, "no expert has a positive count");
    }
    for (double& x : layer) {
      x /= total;
    }
    shares.push_back(std::move(layer));
  }
  return shares;
}

std::vector<std::vector<double>> read_expert_counts(const std::string& path, int moe_layers,
                                                    int experts) {
  return parse_expert_counts(core::read_input_file(path, "the expert counts file", kMaxBytes), path,
                             moe_layers, experts);
}

}  // namespace codesim::workload
