// Decoding of flat YAML entries through the schema.
#include "sim/config/loader.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>

#include "sim/config/schema.hpp"
#include "sim/config/yaml_source.hpp"
#include "sim/core/text.hpp"
#include "sim/workload/expert_shares.hpp"

namespace codesim::config {
namespace {

namespace fs = std::filesystem;
using core::Diagnostic;
using core::SourceLocation;
using core::UnitError;

std::string shown(const YAML::Node& n) {
  if (n.IsMap()) {
    return "a map";
  }
  if (n.IsSequence()) {
    return "a list";
  }
  return "'" + n.Scalar() + "'";
}

const std::string& scalar(const YAML::Node& n, std::string_view expected) {
  if (!n.IsScalar()) {
    throw UnitError("expected " + std::string(expected) + ", got " + shown(n), "");
  }
  return n.Scalar();
}

std::int64_t to_integer(const std::string& text) {
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size()) {
    throw UnitError("expected an integer, got " + core::quoted_excerpt(text), "");
  }
  return v;
}

std::string to_choice(const FieldSpec& f, const std::string& text) {
  if (std::find(f.choices.begin(), f.choices.end(), text) != f.choices.end()) {
    return text;
  }
  const auto near = core::closest_match(text, f.choices);
  throw UnitError(
      "unknown value '" + text + "'",
      near.empty() ? "expected one of: " + core::join(f.choices, ", ")
                   : "did you mean '" + near + "'? (one of: " + core::join(f.choices, ", ") + ")");
}

std::vector<YAML::Node> list_items(const YAML::Node& n, std::string_view expected) {
  if (!n.IsSequence()) {
    throw UnitError("expected " + std::string(expected) + ", got " + shown(n),
                    "write a list: [a, b]");
  }
  return {n.begin(), n.end()};
}

// Points `where` at a list item, so that an error in it is reported there.
void point_at(SourceLocation& where, const YAML::Node& item) {
  if (item.Mark().line >= 0) {
    where.line = item.Mark().line + 1;
    where.column = item.Mark().column + 1;
  }
}

// Decodes a value; `where` starts at the value and moves to the list item being decoded.
Value decode(const FieldSpec& f, const YAML::Node& n, SourceLocation& where) {
  const std::string& file = where.file;
  if (!n.IsDefined() || n.IsNull()) {
    throw UnitError("has no value", "");
  }
  switch (f.type) {
    case FieldType::integer:
      return to_integer(scalar(n, "an integer"));
    case FieldType::real: {
      const auto& text = scalar(n, "a number");
      double v = 0;
      const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
      if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(v)) {
        throw UnitError("expected a number, got " + core::quoted_excerpt(text), "");
      }
      return v;
    }
    case FieldType::boolean: {
      const auto& text = scalar(n, "true or false");
      if (text != "true" && text != "false") {
        throw UnitError("expected true or false, got " + core::quoted_excerpt(text), "");
      }
      return text == "true";
    }
    case FieldType::string:
      return scalar(n, "text");
    case FieldType::path: {
      const auto& text = scalar(n, "a file path");
      if (text.empty()) {
        return text;
      }
      const fs::path p(text);
      // A path written in a file is relative to that file; one given on the command line (--set:
      // no line) to the working directory, as a shell user expects.
      const bool from_file = where.line > 0;
      return (p.is_absolute() || !from_file ? p : (fs::path(file).parent_path() / p))
          .lexically_normal()
          .string();
    }
    case FieldType::choice:
      return to_choice(f, scalar(n, "a name"));
    case FieldType::quantity:
      return core::parse_quantity(scalar(n, "a " + std::string(core::dimension_noun(f.dimension))),
                                  f.dimension);
    case FieldType::integer_list: {
      std::vector<std::int64_t> out;
      for (const auto& item : list_items(n, "a list of integers")) {
        point_at(where, item);
        out.push_back(to_integer(scalar(item, "an integer")));
      }
      return out;
    }
    case FieldType::choice_list: {
      std::vector<std::string> out;
      for (const auto& item : list_items(n, "a list of names")) {
        point_at(where, item);
        out.push_back(to_choice(f, scalar(item, "a name")));
      }
      return out;
    }
  }
  return {};
}

// A value out of its field's range, shown as written (a quantity as its text: -5Gbps, not the
// -625MBps it converts to).
void check_range(const FieldSpec& f, const Value& value, const YAML::Node& node) {
  double v = 0;
  if (const auto* i = std::get_if<std::int64_t>(&value)) {
    v = static_cast<double>(*i);
  } else if (const auto* d = std::get_if<double>(&value)) {
    v = *d;
  } else {
    return;
  }
  const std::string got = f.type == FieldType::quantity && node.IsScalar()
                              ? core::quoted_excerpt(node.Scalar())
                              : number_text(f, v);
  if (f.min) {
    if (f.min_exclusive && !(v > *f.min)) {
      throw UnitError("must be greater than " + number_text(f, *f.min) + ", got " + got, "");
    }
    if (!f.min_exclusive && v < *f.min) {
      throw UnitError("must be at least " + number_text(f, *f.min) + ", got " + got, "");
    }
  }
  if (f.max && v > *f.max) {
    throw UnitError("must be at most " + number_text(f, *f.max) + ", got " + got, "");
  }
}

Scenario decode_all(const FlatScenario& flat, const std::string& path) {
  std::vector<Diagnostic> problems = flat.problems;
  std::map<std::string, SourceLocation> where;
  Scenario s;
  s.source_file = path;
  // Two passes: every value given (and every plain default) first, then the derived defaults in
  // schema order, so that a derived value sees every field it depends on wherever the schema
  // declares it (dp = GPUs / (pp x tp x cp) needs cp, declared after dp).
  std::vector<const FieldSpec*> derived;
  for (const auto& f : scenario_schema()) {
    if (f.path == "include") {
      continue;
    }
    const auto it = flat.entries.find(f.path);
    if (it == flat.entries.end() && f.default_kind == DefaultKind::derived) {
      derived.push_back(&f);
      continue;
    }
    if (it == flat.entries.end() && f.default_kind != DefaultKind::value) {
      if (f.default_kind == DefaultKind::required) {
        problems.push_back(Diagnostic{{path, 0, 0}, f.path, "missing required key", ""});
      }
      continue;
    }
    SourceLocation loc = it != flat.entries.end() ? it->second.where : SourceLocation{path, 0, 0};
    try {
      const YAML::Node node =
          it != flat.entries.end() ? it->second.node : YAML::Load(f.default_text);
      if (it != flat.entries.end()) {
        where[f.path] = loc;
      }
      const Value v = decode(f, node, loc);
      check_range(f, v, node);
      f.set(s, v);
    } catch (const UnitError& e) {
      problems.push_back(Diagnostic{loc, f.path, e.what(), e.hint()});
    } catch (const core::InputError& e) {
      problems.insert(problems.end(), e.diagnostics().begin(), e.diagnostics().end());
    }
  }
  s.where = where;  // a derived default may depend on whether a key was written
  for (const FieldSpec* f : derived) {
    f->set(s, f->derive(s));
  }
  // The model as the step runs it: its vocabulary padded as the framework pads it.
  if (const int m = s.software.vocab_multiple; m > 1) {
    s.model.spec.vocab = (s.model.spec.vocab + m - 1) / m * m;
  }
  if (s.name.empty()) {
    s.name = fs::path(path).stem().string();
  }
  if (problems.empty()) {
    problems = check_rules(s, where);
  }
  if (problems.empty() && !s.inference.expert_counts.empty()) {
    // Read once, here, so that `codesim check` finds a malformed file and no step reads it again.
    const auto& m = s.model.spec;
    try {
      s.inference.expert_shares = workload::read_expert_counts(
          s.inference.expert_counts, m.moe_layer_count(), m.moe->routed_experts);
    } catch (const core::InputError& e) {
      problems = e.diagnostics();
    }
  }
  s.where = std::move(where);
  if (!problems.empty()) {
    throw core::InputError(std::move(problems));
  }
  return s;
}

}  // namespace

std::string Setting::text() const {
  if (value.IsScalar()) {
    return value.Scalar();
  }
  YAML::Emitter e;
  e.SetSeqFormat(YAML::Flow);
  e.SetMapFormat(YAML::Flow);
  e << value;
  return e.c_str();
}

Setting parse_setting(const std::string& assignment, const std::string& flag) {
  const auto eq = assignment.find('=');
  const SourceLocation where{flag + " " + assignment, 0, 0};
  if (eq == std::string::npos || eq == 0) {
    throw core::InputError(
        Diagnostic{where, "", "expected key.path=value", "e.g. " + flag + " routing.node_limit=2"});
  }
  Setting s{assignment.substr(0, eq), {}, where};
  try {
    s.value = YAML::Load(assignment.substr(eq + 1));
  } catch (const YAML::ParserException& e) {
    throw core::InputError(Diagnostic{where, s.key, "invalid YAML: " + e.msg, ""});
  }
  return s;
}

std::vector<Setting> parse_settings(const std::vector<std::string>& assignments) {
  std::vector<Setting> out;
  for (const auto& a : assignments) {
    out.push_back(parse_setting(a));
  }
  return out;
}

void apply_settings(FlatScenario& flat, const std::vector<Setting>& settings) {
  for (const auto& s : settings) {
    if (s.key == "include") {
      // The scenario's includes are merged when its file is read, before any setting applies.
      flat.problems.push_back(Diagnostic{s.where, s.key, "includes cannot be set with --set",
                                         "list the file under the scenario's include:"});
      continue;
    }
    if (find_field(s.key) != nullptr) {
      flat.entries[s.key] = Entry{s.value, s.where};
      continue;
    }
    const auto near = core::closest_match(s.key, field_paths());
    flat.problems.push_back(Diagnostic{s.where, s.key, "unknown key path",
                                       near.empty() ? "" : "did you mean '" + near + "'?"});
  }
}

Scenario decode_scenario(FlatScenario flat, const std::string& path,
                         const std::vector<Setting>& settings) {
  apply_settings(flat, settings);
  return decode_all(flat, path);
}

ScenarioSource ScenarioSource::with(const std::vector<Setting>& more) const {
  ScenarioSource out = *this;
  out.settings.insert(out.settings.end(), more.begin(), more.end());
  return out;
}

FlatScenario read_source(const ScenarioSource& source) {
  FlatScenario flat =
      source.text ? read_scenario_text(*source.text, source.path) : read_scenario_yaml(source.path);
  apply_settings(flat, source.settings);
  return flat;
}

Scenario load_scenario(const ScenarioSource& source) {
  return decode_scenario(read_source(source), source.path);
}

Scenario load_scenario(const std::string& path, const std::vector<Setting>& settings) {
  return decode_scenario(read_scenario_yaml(path), path, settings);
}

Scenario load_scenario_text(const std::string& text, const std::string& path,
                            const std::vector<Setting>& settings) {
  return decode_scenario(read_scenario_text(text, path), path, settings);
}

[[noreturn]] void scenario_error(const Scenario& s, const std::string& key,
                                 const std::string& message, const std::string& hint) {
  const auto it = s.where.find(key);
  const core::SourceLocation at =
      it != s.where.end() ? it->second : core::SourceLocation{s.source_file, 0, 0};
  throw core::InputError(core::Diagnostic{at, key, message, hint});
}

[[noreturn]] void scenario_error(const Scenario& s, const core::KeyedError& e) {
  for (const std::string& key : e.sources()) {
    if (s.where.contains(key)) {
      scenario_error(s, key, e.what(), e.hint());
    }
  }
  scenario_error(s, e.key_path(), e.what(), e.hint());
}

}  // namespace codesim::config
