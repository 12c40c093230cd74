// The scenario schema: its fields in declaration order (each default once: in the module that
// declares the key beside its spec, <module>/parameters.hpp, or in schema_system_fields.cpp for
// the keys config owns: the model and hardware presets) and lookups over them.
#include "sim/config/schema.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/config/schema_field.hpp"
#include "sim/core/text.hpp"

namespace codesim::config {
namespace {

std::vector<FieldSpec> build_schema() {
  std::vector<FieldSpec> f;
  schema_fields::add_system_fields(f);
  schema_fields::add_run_fields(f);
  schema_fields::add_study_fields(f);
  return f;
}

}  // namespace

const std::vector<FieldSpec>& scenario_schema() {
  static const std::vector<FieldSpec> schema = build_schema();  // immutable after first use
  return schema;
}

std::vector<std::string> field_paths() {
  std::vector<std::string> paths;
  for (const auto& f : scenario_schema()) {
    paths.push_back(f.path);
  }
  return paths;
}

const FieldSpec* find_field(std::string_view path) {
  const auto& all = scenario_schema();
  const auto it =
      std::find_if(all.begin(), all.end(), [&](const auto& f) { return f.path == path; });
  return it == all.end() ? nullptr : &*it;
}

bool is_section(std::string_view path) {
  const std::string prefix = std::string(path) + ".";
  return std::any_of(scenario_schema().begin(), scenario_schema().end(),
                     [&](const auto& f) { return f.path.starts_with(prefix); });
}

std::vector<std::string> children_of(std::string_view section) {
  const std::string prefix = section.empty() ? "" : std::string(section) + ".";
  std::vector<std::string> names;
  for (const auto& f : scenario_schema()) {
    if (!f.path.starts_with(prefix)) {
      continue;
    }
    const std::string rest = f.path.substr(prefix.size());
    const std::string child = rest.substr(0, rest.find('.'));
    if (std::find(names.begin(), names.end(), child) == names.end()) {
      names.push_back(child);
    }
  }
  return names;
}

std::string number_text(const FieldSpec& f, double v) {
  return f.type == FieldType::quantity ? core::format_quantity(v, f.dimension)
                                       : core::format_number(v);
}

std::string spelled_value(const Scenario& s, std::string_view path) {
  const FieldSpec* f = find_field(path);
  if (f == nullptr) {
    throw std::logic_error("no scenario key " + std::string(path));
  }
  return std::visit(
      [&](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, double>) {
          return number_text(*f, x);
        } else if constexpr (std::is_same_v<T, bool>) {
          return x ? "true" : "false";
        } else if constexpr (std::is_same_v<T, std::int64_t>) {
          return std::to_string(x);
        } else if constexpr (std::is_same_v<T, std::string>) {
          return x;
        } else {
          std::vector<std::string> items;
          for (const auto& item : x) {
            if constexpr (std::is_same_v<std::decay_t<decltype(item)>, std::string>) {
              items.push_back(item);
            } else {
              items.push_back(std::to_string(item));
            }
          }
          return "[" + core::join(items, ", ") + "]";
        }
      },
      f->get(s));
}

std::string type_description(const FieldSpec& f) {
  switch (f.type) {
    case FieldType::integer:
      return "integer";
    case FieldType::real:
      return "number";
    case FieldType::boolean:
      return "true or false";
    case FieldType::string:
      return "text";
    case FieldType::path:
      return "file path";
    case FieldType::quantity:
      return std::string(core::dimension_noun(f.dimension));
    case FieldType::integer_list:
      return "list of integers";
    case FieldType::choice:
      return "one of: " + core::join(f.choices, ", ");
    case FieldType::choice_list:
      return "list of: " + core::join(f.choices, ", ");
  }
  return "";
}

}  // namespace codesim::config
