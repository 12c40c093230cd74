// A parameter declared beside the module that reads it: its doc, its default as scenario files
// spell it, and its range. A module lists its keys in a function template over its own spec
// struct (`declare_parameters(declare)`, calling declare(key, accessor, info) per key; the
// accessor a generic lambda returning the member, MEMBER(x)); sim/config turns each into a
// schema field (type and unit from the member's C++ type) that decodes YAML and --set, checks the
// range, and is listed in the schema's docs and the CLI. The module's struct holds the same
// defaults, and config's tests check that each default text decodes to the struct's value.
//
// A derived default (`derived(how, doc)`) comes with a fourth argument, derive(spec, given,
// spelled): the value from the spec's other members, `given(key)` (whether the scenario wrote
// that key of the module) and `spelled(path)` (any key of the scenario, decoded, as files spell
// it: spelled("workload.kind") == "decode"), and, where the derive takes a fourth argument, the
// scenario's model (llm::LlmSpec: a default an MoE model changes). A member's C++ type says how
// files spell it: numbers, flags, strings, quantities, an enum named by a function `spellings(E)`
// beside it (found by argument-dependent lookup, returning its (value, spelling) pairs), or a type
// of the module's own that spells itself (SpelledValue: `T::parse(text)`, throwing core::UnitError,
// and `text()`).
#pragma once

#include <concepts>
#include <optional>
#include <string>

namespace codesim::core {

template <class T>
concept SpelledValue = requires(const T& t, const std::string& text) {
  { T::parse(text) } -> std::same_as<T>;
  { t.text() } -> std::convertible_to<std::string>;
};

enum class DefaultKind {
  value,     // default_text, spelled as in YAML
  preset,    // taken from the preset chosen by preset_source
  required,  // must be given
  empty,     // absent means none
  derived,   // computed by `derive` from fields declared earlier; default_text says how
};

struct ParamInfo {
  std::string doc;
  DefaultKind default_kind = DefaultKind::value;
  std::string default_text;
  std::string preset_source;
  std::optional<double> min;
  bool min_exclusive = false;
  std::optional<double> max;
  std::string default_key;  // derived: the value of this key of the scenario (same_as)
  bool file_path = false;   // a text member naming a file, relative to the scenario's
};

inline ParamInfo with_default(std::string text, std::string doc) {
  return {.doc = std::move(doc), .default_text = std::move(text)};
}
inline ParamInfo from_preset(std::string source, std::string doc) {
  return {.doc = std::move(doc),
          .default_kind = DefaultKind::preset,
          .preset_source = std::move(source)};
}
inline ParamInfo derived(std::string how, std::string doc) {
  return {
      .doc = std::move(doc), .default_kind = DefaultKind::derived, .default_text = std::move(how)};
}
// A default that is another key's value, wherever that key is declared: same_as("hardware.nodes").
inline ParamInfo same_as(std::string key, std::string doc) {
  ParamInfo f = derived(key, std::move(doc));
  f.default_key = std::move(key);
  return f;
}
// A file named relative to the scenario file that names it (from --set: to the working directory).
inline ParamInfo file_path(ParamInfo f) {
  f.file_path = true;
  return f;
}
inline ParamInfo optional_field(std::string doc) {
  return {.doc = std::move(doc), .default_kind = DefaultKind::empty};
}
inline ParamInfo at_least(ParamInfo f, double min) {
  f.min = min;
  return f;
}
inline ParamInfo positive(ParamInfo f) {
  f.min = 0;
  f.min_exclusive = true;
  return f;
}
inline ParamInfo between(ParamInfo f, double min, double max) {
  f.min = min;
  f.max = max;
  return f;
}

}  // namespace codesim::core

// A member as a generic accessor (const or not): MEMBER(hardware.nodes), MEMBER(gpu_slow.slowdown).
#define MEMBER(expr)     \
  [](auto& s) -> auto& { \
    return s.expr;       \
  }
