// The schema's field helpers, shared by the files that declare the scenario's fields
// (schema_system_fields.cpp, schema_run_fields.cpp): what a field's default is, its range, and a
// field bound to a Scenario member. Internal to sim/config.
#pragma once

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "sim/config/schema.hpp"

namespace codesim::config::schema_fields {

struct FieldInfo {
  std::string doc;
  DefaultKind default_kind = DefaultKind::value;
  std::string default_text;
  std::string preset_source;
  std::optional<double> min;
  bool min_exclusive = false;
  std::optional<double> max;
};

inline FieldInfo with_default(std::string text, std::string doc) {
  return {.doc = std::move(doc), .default_text = std::move(text)};
}
inline FieldInfo from_preset(std::string source, std::string doc) {
  return {.doc = std::move(doc),
          .default_kind = DefaultKind::preset,
          .preset_source = std::move(source)};
}
inline FieldInfo derived(std::string how, std::string doc) {
  return {
      .doc = std::move(doc), .default_kind = DefaultKind::derived, .default_text = std::move(how)};
}
inline FieldInfo optional_field(std::string doc) {
  return {.doc = std::move(doc), .default_kind = DefaultKind::empty};
}
inline FieldInfo at_least(FieldInfo f, double min) {
  f.min = min;
  return f;
}
inline FieldInfo positive(FieldInfo f) {
  f.min = 0;
  f.min_exclusive = true;
  return f;
}
inline FieldInfo between(FieldInfo f, double min, double max) {
  f.min = min;
  f.max = max;
  return f;
}

template <class T>
std::vector<std::string> choices_for() {
  if constexpr (NamedEnum<T>) {
    return choice_names<T>();
  } else if constexpr (requires { typename T::value_type; } && !std::is_same_v<T, std::string>) {
    if constexpr (NamedEnum<typename T::value_type>) {
      return choice_names<typename T::value_type>();
    }
  }
  return {};
}

// A field bound to a Scenario member through `access`, a generic lambda returning a reference.
template <class Access>
FieldSpec field(std::string path, Access access, FieldInfo info) {
  using T = std::remove_cvref_t<decltype(access(std::declval<Scenario&>()))>;
  FieldSpec f;
  f.path = std::move(path);
  f.type = Codec<T>::type;
  if constexpr (IsQuantity<T>::value) {
    f.dimension = dimension_of<T>();
  }
  f.choices = choices_for<T>();
  f.default_kind = info.default_kind;
  f.default_text = std::move(info.default_text);
  f.preset_source = std::move(info.preset_source);
  f.min = info.min;
  f.min_exclusive = info.min_exclusive;
  f.max = info.max;
  f.doc = std::move(info.doc);
  f.set = [access](Scenario& s, const Value& v) { access(s) = Codec<T>::from(v); };
  f.get = [access](const Scenario& s) { return Codec<T>::to(access(s)); };
  return f;
}

// A Scenario member as a generic accessor: MEMBER(hardware.nodes).
#define MEMBER(expr)     \
  [](auto& s) -> auto& { \
    return s.expr;       \
  }

// The scenario's own fields (name, description, include), its model, hardware, topology and cost.
void add_system_fields(std::vector<FieldSpec>& f);
// What runs on it: parallelism, schedule, workload, routing, inference.
void add_run_fields(std::vector<FieldSpec>& f);
// A request-level serving run's: instances, arrivals, SLOs (`codesim serve`).
void add_serve_fields(std::vector<FieldSpec>& f);
// A training run's: tokens, failures, checkpoints, power, price (`codesim campaign`).
void add_campaign_fields(std::vector<FieldSpec>& f);
// What varies between a training step's GPUs and NICs.
void add_variability_fields(std::vector<FieldSpec>& f);

}  // namespace codesim::config::schema_fields
