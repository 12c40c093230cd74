// The schema's field helpers, shared by the files that list the scenario's fields
// (schema_system_fields.cpp, schema_run_fields.cpp, schema_study_fields.cpp): a field bound to a
// Scenario member, and the keys a module declares beside its spec turned into fields. Internal to
// sim/config.
#pragma once

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "sim/config/schema.hpp"
#include "sim/core/parameter.hpp"

namespace codesim::config::schema_fields {

using FieldInfo = core::ParamInfo;
using core::at_least;
using core::between;
using core::derived;
using core::file_path;
using core::from_preset;
using core::optional_field;
using core::positive;
using core::same_as;
using core::with_default;

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
  if constexpr (std::is_same_v<T, std::string>) {
    if (info.file_path) {
      f.type = FieldType::path;
    }
  }
  if (!info.default_key.empty()) {
    // Looked up when a scenario is decoded: the schema is whole by then.
    f.derive = [key = info.default_key](const Scenario& s) { return find_field(key)->get(s); };
  }
  f.set = [access](Scenario& s, const Value& v) { access(s) = Codec<T>::from(v); };
  f.get = [access](const Scenario& s) { return Codec<T>::to(access(s)); };
  return f;
}

// A declared derive's value: derive(spec, given, spelled), or with the scenario's model too where
// it takes one (a default that an MoE model changes: inference.micro_batches).
template <class Derive, class Spec, class Given, class Spelled>
auto derive_default(const Derive& derive, const Spec& spec, const Given& given,
                    const Spelled& spelled, const llm::LlmSpec& model) {
  if constexpr (std::is_invocable_v<const Derive&, const Spec&, const Given&, const Spelled&,
                                    const llm::LlmSpec&>) {
    return derive(spec, given, spelled, model);
  } else {
    return derive(spec, given, spelled);
  }
}

// The keys a module declares (core/parameter.hpp: `declare_parameters` calls declare(key,
// accessor, info[, derive]) per key of its spec), each under `prefix` and bound through `section`
// (an accessor of the Scenario member holding the module's spec): "variability." + "steps".
template <class Section, class Declarations>
void add_declared(std::vector<FieldSpec>& f, const std::string& prefix, Section section,
                  Declarations declarations) {
  declarations([&](const std::string& key, auto access, FieldInfo info, auto... derive) {
    const auto bound = [ section, access ](auto& s) -> auto& {
      return access(section(s));
    };
    f.push_back(field(prefix + key, bound, std::move(info)));
    if constexpr (sizeof...(derive) == 1) {
      using T = std::remove_cvref_t<decltype(bound(std::declval<Scenario&>()))>;
      f.back().derive = [section, prefix, derive...](const Scenario& s) {
        const auto given = [&](const std::string& k) { return s.where.count(prefix + k) > 0; };
        const auto spelled = [&](const std::string& path) { return spelled_value(s, path); };
        return Codec<T>::to(
            (derive_default(derive, section(s), given, spelled, s.model.spec), ...));
      };
    }
  });
}

// The scenario's own fields (name, description, include), its model, hardware, topology and cost.
void add_system_fields(std::vector<FieldSpec>& f);
// What runs on it: parallelism, schedule, workload, routing, inference.
void add_run_fields(std::vector<FieldSpec>& f);
// Serving, a training campaign, and what varies between a training step's GPUs and NICs.
void add_study_fields(std::vector<FieldSpec>& f);

}  // namespace codesim::config::schema_fields
