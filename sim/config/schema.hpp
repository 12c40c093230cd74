// The scenario schema: every field declared once (key path, type, unit, default, range, doc).
// The same table drives decoding, `codesim describe`, scenarios/SCHEMA.md and `codesim check`.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/config/scenario.hpp"
#include "sim/config/value.hpp"
#include "sim/core/parameter.hpp"

namespace codesim::config {

// hardware.gpu value for a GPU described field by field, with no preset behind it.
inline constexpr const char* kCustomHardware = "custom";

using DefaultKind = core::DefaultKind;

struct FieldSpec {
  std::string path;  // "hardware.nvlink_bandwidth"
  FieldType type = FieldType::string;
  core::Dimension dimension{};       // quantity fields
  std::vector<std::string> choices;  // choice and choice-list fields
  DefaultKind default_kind = DefaultKind::value;
  std::string default_text;
  std::string preset_source;  // e.g. "hardware.gpu" for preset defaults
  std::optional<double> min;  // in the base unit for quantities
  bool min_exclusive = false;
  std::optional<double> max;
  std::string doc;
  // Writes a decoded value into the scenario; may throw core::UnitError (bad preset name) or
  // core::InputError (a referenced file is bad).
  std::function<void(Scenario&, const Value&)> set;
  std::function<Value(const Scenario&)> get;
  std::function<Value(const Scenario&)> derive;  // derived defaults only
};

// The fields in declaration order: a preset selector comes before the fields it fills, so
// decoding in this order lets an explicit value override the preset.
const std::vector<FieldSpec>& scenario_schema();

// Every field's key path, in schema order (for did-you-mean over all keys).
std::vector<std::string> field_paths();

const FieldSpec* find_field(std::string_view path);

// Whether `path` names a section (a prefix of some field path, e.g. "workload.precision").
bool is_section(std::string_view path);

// Names directly under a section ("" = top level), for did-you-mean.
std::vector<std::string> children_of(std::string_view section);

// A number of field `f` as scenario files spell it: a quantity with its unit ("450GBps").
std::string number_text(const FieldSpec& f, double v);

// A key's value in `s` as scenario files spell it ("decode", "450GBps", "true", "[0, 1]").
std::string spelled_value(const Scenario& s, std::string_view path);

// "integer", "bandwidth", "one of: 1f1b, zb1p, ...", ... as shown to users.
std::string type_description(const FieldSpec& f);

}  // namespace codesim::config
