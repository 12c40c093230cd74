// Resolved-scenario writers, both driven by the schema table.
#include "sim/config/dump.hpp"

#include <yaml-cpp/yaml.h>

#include "sim/config/schema.hpp"

namespace codesim::config {
namespace {

constexpr int kSchemaVersion = 1;

bool skipped(const FieldSpec& f, const Value& v) {
  if (f.path == "include") {
    return true;  // already applied
  }
  if (const auto* text = std::get_if<std::string>(&v)) {
    return text->empty();
  }
  return false;
}

std::vector<std::string> split(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t dot; (dot = path.find('.', start)) != std::string::npos; start = dot + 1) {
    parts.push_back(path.substr(start, dot - start));
  }
  parts.push_back(path.substr(start));
  return parts;
}

}  // namespace

std::string to_yaml(const Scenario& s) {
  YAML::Node root(YAML::NodeType::Map);
  for (const auto& f : scenario_schema()) {
    const Value v = f.get(s);
    if (skipped(f, v)) {
      continue;
    }
    const auto parts = split(f.path);
    YAML::Node node = root;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
      node.reset(node[parts[i]]);
    }
    YAML::Node leaf(YAML::NodeType::Null);
    std::visit(
        [&](const auto& x) {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, double>) {
            leaf = number_text(f, x);
          } else if constexpr (std::is_same_v<T, std::vector<std::int64_t>> ||
                               std::is_same_v<T, std::vector<std::string>>) {
            leaf = YAML::Node(YAML::NodeType::Sequence);
            for (const auto& item : x) {
              leaf.push_back(item);
            }
            leaf.SetStyle(YAML::EmitterStyle::Flow);
          } else {
            leaf = x;
          }
        },
        v);
    node[parts.back()] = leaf;
  }
  YAML::Emitter out;
  out << root;
  return std::string(out.c_str()) + "\n";
}

nlohmann::ordered_json to_json(const Scenario& s) {
  nlohmann::ordered_json root;
  root["schema_version"] = kSchemaVersion;
  for (const auto& f : scenario_schema()) {
    const Value v = f.get(s);
    if (skipped(f, v)) {
      continue;
    }
    nlohmann::ordered_json* node = &root;
    const auto parts = split(f.path);
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
      node = &(*node)[parts[i]];
    }
    std::visit([&](const auto& x) { (*node)[parts.back()] = x; }, v);
  }
  return root;
}

}  // namespace codesim::config
