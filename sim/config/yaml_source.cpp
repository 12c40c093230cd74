// YAML reading, include resolution and flattening.
#include "sim/config/yaml_source.hpp"

#include <filesystem>

#include "sim/config/schema.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/text.hpp"

namespace codesim::config {
namespace {

namespace fs = std::filesystem;
using core::Diagnostic;
using core::SourceLocation;

constexpr int kMaxIncludeDepth = 16;

SourceLocation location(const std::string& file, const YAML::Mark& mark) {
  if (mark.line < 0) {
    return {file, 0, 0};
  }
  return {file, mark.line + 1, mark.column + 1};
}

std::string node_kind(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map:
      return "a map";
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Null:
      return "nothing";
    default:
      return core::quoted_excerpt(n.Scalar());
  }
}

class Reader {
 public:
  explicit Reader(FlatScenario& out) : out_(out) {}

  void read_file(const std::string& path, const SourceLocation& included_from, int depth) {
    std::string text;
    try {
      text = core::read_input_file(
          path, depth == 0 ? "the scenario file" : "the included file '" + path + "'",
          core::kMaxConfigBytes);
    } catch (const core::InputError& e) {
      const core::Diagnostic& d = e.diagnostics().front();
      if (depth == 0) {
        problem(d.where, "", d.message, d.hint);
      } else {
        problem(included_from, "include", d.message, d.hint);
      }
      return;
    }
    read_text(text, path, included_from, depth);
  }

  void read_text(const std::string& text, const std::string& path,
                 const SourceLocation& included_from, int depth) {
    if (depth > kMaxIncludeDepth) {
      problem(included_from, "include", "includes nest deeper than 16 files (a cycle?)");
      return;
    }
    YAML::Node root;
    try {
      root = YAML::Load(text);
    } catch (const YAML::ParserException& e) {
      problem(location(path, e.mark), "", "invalid YAML: " + e.msg);
      return;
    }
    if (root.IsNull()) {
      problem({path, 0, 0}, "", "the scenario is empty",
              "start from scenarios/deepseek-v3-h800-mpft.yaml");
      return;
    }
    if (!root.IsMap()) {
      problem(location(path, root.Mark()), "",
              "a scenario must be a map of sections, got " + node_kind(root));
      return;
    }
    if (const auto inc = root["include"]) {
      read_includes(inc, path, depth);
    }
    flatten(root, "", path);
  }

 private:
  void read_includes(const YAML::Node& inc, const std::string& path, int depth) {
    std::vector<YAML::Node> items;
    if (inc.IsScalar()) {
      items.push_back(inc);
    } else if (inc.IsSequence()) {
      for (const auto& item : inc) {
        items.push_back(item);
      }
    }
    if (items.empty() ||
        std::any_of(items.begin(), items.end(), [](const auto& n) { return !n.IsScalar(); })) {
      problem(location(path, inc.Mark()), "include",
              "expected a file path or a list of file paths, got " + node_kind(inc));
      return;
    }
    for (const auto& item : items) {
      const fs::path target = (fs::path(path).parent_path() / item.Scalar()).lexically_normal();
      read_file(target.string(), location(path, item.Mark()), depth + 1);
    }
  }

  void flatten(const YAML::Node& map, const std::string& prefix, const std::string& file) {
    for (const auto& kv : map) {
      const YAML::Node& key = kv.first;
      const YAML::Node& value = kv.second;
      if (!key.IsScalar()) {
        problem(location(file, key.Mark()), prefix, "a key must be a plain name");
        continue;
      }
      const std::string path = prefix.empty() ? key.Scalar() : prefix + "." + key.Scalar();
      if (path == "include") {
        continue;  // already read
      }
      if (path == "sweep" || path == "search") {
        (path == "sweep" ? out_.sweep : out_.search) =
            Entry{value, location(file, value.IsNull() ? key.Mark() : value.Mark())};
        continue;
      }
      if (find_field(path) != nullptr) {
        // A null value has no useful mark of its own: point at its key.
        const auto& at = value.IsNull() ? key : value;
        out_.entries[path] = Entry{value, location(file, at.Mark())};
      } else if (is_section(path)) {
        if (value.IsMap()) {
          flatten(value, path, file);
        } else {
          problem(location(file, value.Mark()), path,
                  "expected a map of settings, got " + node_kind(value),
                  "keys here: " + core::join(children_of(path), ", "));
        }
      } else {
        auto siblings = children_of(prefix);
        if (prefix.empty()) {
          siblings.insert(siblings.end(), {"sweep", "search"});
        }
        const auto near = core::closest_match(key.Scalar(), siblings);
        problem(location(file, key.Mark()), path, "unknown key",
                near.empty() ? "keys here: " + core::join(siblings, ", ")
                             : "did you mean '" + near + "'?");
      }
    }
  }

  void problem(SourceLocation where, std::string key, std::string message, std::string hint = {}) {
    out_.problems.push_back(
        Diagnostic{std::move(where), std::move(key), std::move(message), std::move(hint)});
  }

  FlatScenario& out_;
};

}  // namespace

FlatScenario read_scenario_yaml(const std::string& path) {
  FlatScenario out;
  Reader(out).read_file(path, {path, 0, 0}, 0);
  return out;
}

FlatScenario read_scenario_text(const std::string& text, const std::string& path) {
  FlatScenario out;
  Reader(out).read_text(text, path, {path, 0, 0}, 0);
  return out;
}

}  // namespace codesim::config
