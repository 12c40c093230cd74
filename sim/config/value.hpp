// A decoded scenario value and the conversions between it and the typed Scenario members.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "sim/config/scenario.hpp"
#include "sim/core/error.hpp"
#include "sim/core/parameter.hpp"
#include "sim/core/quantity_parse.hpp"

namespace codesim::config {

// Quantities are held in their SI base unit; choices as their spelling.
using Value = std::variant<std::int64_t, double, bool, std::string, std::vector<std::int64_t>,
                           std::vector<std::string>>;

enum class FieldType {
  integer,
  real,
  boolean,
  string,
  path,
  choice,
  quantity,
  integer_list,
  choice_list
};

template <class T>
struct IsQuantity : std::false_type {};
template <class Tag>
struct IsQuantity<core::Quantity<Tag>> : std::true_type {};

template <class E>
concept NamedEnum = std::is_enum_v<E> && requires {
  EnumNames<E>::values;
};

template <class T>
constexpr core::Dimension dimension_of() {
  if constexpr (std::is_same_v<T, core::Bytes>) {
    return core::Dimension::bytes;
  } else if constexpr (std::is_same_v<T, core::Seconds>) {
    return core::Dimension::seconds;
  } else if constexpr (std::is_same_v<T, core::Flops>) {
    return core::Dimension::flops;
  } else if constexpr (std::is_same_v<T, core::BytesPerSecond>) {
    return core::Dimension::bytes_per_second;
  } else {
    static_assert(std::is_same_v<T, core::FlopsPerSecond>);
    return core::Dimension::flops_per_second;
  }
}

template <NamedEnum E>
std::vector<std::string> choice_names() {
  std::vector<std::string> out;
  for (const auto& [value, name] : EnumNames<E>::values) {
    out.emplace_back(name);
  }
  return out;
}

template <NamedEnum E>
E enum_from_name(const std::string& name) {
  for (const auto& [value, spelled] : EnumNames<E>::values) {
    if (spelled == name) {
      return value;
    }
  }
  throw core::UnitError("unknown value '" + name + "'", "");  // the decoder checks choices first
}

// Codec<T>: the field type of a member of type T, and conversions to and from Value.
template <class T>
struct Codec;

template <>
struct Codec<int> {
  static constexpr FieldType type = FieldType::integer;
  static int from(const Value& v) { return static_cast<int>(std::get<std::int64_t>(v)); }
  static Value to(int x) { return std::int64_t{x}; }
};
template <>
struct Codec<double> {
  static constexpr FieldType type = FieldType::real;
  static double from(const Value& v) { return std::get<double>(v); }
  static Value to(double x) { return x; }
};
template <>
struct Codec<bool> {
  static constexpr FieldType type = FieldType::boolean;
  static bool from(const Value& v) { return std::get<bool>(v); }
  static Value to(bool x) { return x; }
};
template <>
struct Codec<std::string> {
  static constexpr FieldType type = FieldType::string;
  static std::string from(const Value& v) { return std::get<std::string>(v); }
  static Value to(const std::string& x) { return x; }
};
template <class Tag>
struct Codec<core::Quantity<Tag>> {
  static constexpr FieldType type = FieldType::quantity;
  static core::Quantity<Tag> from(const Value& v) {
    return core::Quantity<Tag>(std::get<double>(v));
  }
  static Value to(core::Quantity<Tag> x) { return x.value; }
};
template <>
struct Codec<std::vector<int>> {
  static constexpr FieldType type = FieldType::integer_list;
  static std::vector<int> from(const Value& v) {
    std::vector<int> out;
    for (auto x : std::get<std::vector<std::int64_t>>(v)) {
      out.push_back(static_cast<int>(x));
    }
    return out;
  }
  static Value to(const std::vector<int>& xs) {
    return std::vector<std::int64_t>(xs.begin(), xs.end());
  }
};
template <NamedEnum E>
struct Codec<E> {
  static constexpr FieldType type = FieldType::choice;
  static E from(const Value& v) { return enum_from_name<E>(std::get<std::string>(v)); }
  static Value to(E x) { return std::string(enum_name(x)); }
};
template <core::SpelledValue T>
struct Codec<T> {
  static constexpr FieldType type = FieldType::string;
  static T from(const Value& v) { return T::parse(std::get<std::string>(v)); }
  static Value to(const T& x) { return x.text(); }
};
template <NamedEnum E>
struct Codec<std::vector<E>> {
  static constexpr FieldType type = FieldType::choice_list;
  static std::vector<E> from(const Value& v) {
    std::vector<E> out;
    for (const auto& s : std::get<std::vector<std::string>>(v)) {
      out.push_back(enum_from_name<E>(s));
    }
    return out;
  }
  static Value to(const std::vector<E>& xs) {
    std::vector<std::string> out;
    for (auto x : xs) {
      out.emplace_back(enum_name(x));
    }
    return out;
  }
};

}  // namespace codesim::config
