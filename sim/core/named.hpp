// Lookup in catalogs of named presets (anything with a `name` member) and in enum name tables.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace codesim::core {

template <class T>
std::optional<T> find_named(const std::vector<T>& items, std::string_view name) {
  const auto it =
      std::find_if(items.begin(), items.end(), [&](const T& x) { return x.name == name; });
  return it == items.end() ? std::nullopt : std::optional<T>(*it);
}

template <class T>
std::vector<std::string> names_of(const std::vector<T>& items) {
  std::vector<std::string> names;
  for (const auto& x : items) {
    names.push_back(x.name);
  }
  return names;
}

// The name an enum value has in a table of {value, name} pairs, or "?".
template <class Table, class E>
std::string_view name_in(const Table& table, E value) {
  for (const auto& [v, name] : table) {
    if (v == value) {
      return name;
    }
  }
  return "?";
}

}  // namespace codesim::core
