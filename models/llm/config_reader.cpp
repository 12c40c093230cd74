// ConfigReader: typed, located reads of a model config's keys.
#include "models/llm/config_reader.hpp"

#include <algorithm>
#include <cctype>

#include "sim/core/text.hpp"

namespace codesim::llm {

using core::Diagnostic;
using nlohmann::json;

namespace {
const json kEmptyObject = json::object();
}  // namespace

ConfigReader::ConfigReader(std::string_view text, const std::string& file, const json& object,
                           std::string path, std::size_t start,
                           std::vector<core::Diagnostic>& problems)
    : text_(text),
      file_(file),
      object_(object),
      path_(std::move(path)),
      start_(start),
      problems_(problems) {}

std::string ConfigReader::key_path(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

const json* ConfigReader::value(std::string_view key) {
  read_.emplace(key);
  const auto it = object_.find(std::string(key));
  return it == object_.end() || it->is_null() ? nullptr : &*it;
}

bool ConfigReader::has(std::string_view key) {
  return value(key) != nullptr;
}

bool ConfigReader::is_null(std::string_view key) {
  read_.emplace(key);
  const auto it = object_.find(std::string(key));
  return it != object_.end() && it->is_null();
}

core::SourceLocation key_location(std::string_view text, std::string_view key,
                                  const std::string& file, std::size_t from, int nth) {
  const std::string quoted = "\"" + std::string(key) + "\"";
  int seen = 0;
  for (std::size_t pos = from; (pos = text.find(quoted, pos)) != std::string_view::npos;
       pos += quoted.size()) {
    std::size_t after = pos + quoted.size();
    while (after < text.size() && std::isspace(static_cast<unsigned char>(text[after]))) {
      ++after;
    }
    if (after < text.size() && text[after] == ':' && seen++ == nth) {
      return core::location_of_offset(text, pos, file);
    }
  }
  return {file, 0, 0};
}

// Where "key": sits in the text, looked for from the object's start (a nested object's keys may
// also be the document's).
core::SourceLocation ConfigReader::locate(std::string_view key) const {
  return key_location(text_, key, file_, start_);
}

void ConfigReader::error(std::string_view key, std::string message, std::string hint) {
  problems_.push_back(Diagnostic{locate(key), key_path(key), std::move(message), std::move(hint)});
}

void ConfigReader::missing(std::string_view key) {
  problems_.push_back(Diagnostic{{file_, 0, 0}, key_path(key), "missing required key", {}});
}

std::string ConfigReader::describe(const json& v) {
  if (v.is_string()) {
    return "a string " + v.dump();
  }
  if (v.is_number_float()) {
    return "the number " + v.dump();
  }
  return std::string(v.type_name()) + " " + v.dump();
}

int ConfigReader::integer(std::string_view key, int min_value, std::optional<int> fallback,
                          int max_value) {
  const json* v = value(key);
  if (v == nullptr) {
    if (!fallback) {
      missing(key);
    }
    return fallback.value_or(0);
  }
  if (!v->is_number_integer()) {
    error(key, "expected an integer, got " + describe(*v));
    return 0;
  }
  const auto n = v->get<long long>();
  if (n < min_value || n > max_value) {
    error(key, "must be between " + std::to_string(min_value) + " and " +
                   std::to_string(max_value) + ", got " + std::to_string(n));
    return 0;
  }
  return static_cast<int>(n);
}

double ConfigReader::number(std::string_view key, double fallback) {
  const json* v = value(key);
  if (v == nullptr) {
    return fallback;
  }
  if (!v->is_number() || !(v->get<double>() > 0)) {
    error(key, "expected a positive number, got " + describe(*v));
    return fallback;
  }
  return v->get<double>();
}

bool ConfigReader::boolean(std::string_view key, bool fallback) {
  const json* v = value(key);
  if (v == nullptr) {
    return fallback;
  }
  if (!v->is_boolean()) {
    error(key, "expected true or false, got " + describe(*v));
    return fallback;
  }
  return v->get<bool>();
}

std::string ConfigReader::choice(std::string_view key, std::span<const std::string_view> allowed,
                                 std::string_view fallback) {
  const json* v = value(key);
  if (v == nullptr) {
    return std::string(fallback);
  }
  if (v->is_string() &&
      std::find(allowed.begin(), allowed.end(), v->get<std::string>()) != allowed.end()) {
    return v->get<std::string>();
  }
  std::string list;
  for (const auto a : allowed) {
    list += (list.empty() ? "\"" : ", \"") + std::string(a) + "\"";
  }
  error(key, "expected one of " + list + ", got " + describe(*v));
  return std::string(fallback);
}

std::vector<long long> ConfigReader::integers(std::string_view key) {
  const json* v = value(key);
  std::vector<long long> out;
  if (v == nullptr) {
    return out;
  }
  if (!v->is_array() || !std::all_of(v->begin(), v->end(),
                                     [](const json& e) { return e.is_number_integer(); })) {
    error(key, "expected a list of integers, got " + describe(*v));
    return out;
  }
  for (const json& e : *v) {
    out.push_back(e.get<long long>());
  }
  return out;
}

std::vector<std::string> ConfigReader::strings(std::string_view key) {
  const json* v = value(key);
  std::vector<std::string> out;
  if (v == nullptr) {
    return out;
  }
  if (!v->is_array() ||
      !std::all_of(v->begin(), v->end(), [](const json& e) { return e.is_string(); })) {
    error(key, "expected a list of strings, got " + describe(*v));
    return out;
  }
  for (const json& e : *v) {
    out.push_back(e.get<std::string>());
  }
  return out;
}

ConfigReader ConfigReader::nested(std::string_view key) {
  const json* v = value(key);
  std::size_t start = text_.find("\"" + std::string(key) + "\"", start_);
  if (start == std::string_view::npos) {
    start = start_;
  }
  if (v == nullptr) {
    missing(key);
    return ConfigReader(text_, file_, kEmptyObject, key_path(key), start, problems_);
  }
  if (!v->is_object()) {
    error(key, "expected an object, got " + describe(*v));
    return ConfigReader(text_, file_, kEmptyObject, key_path(key), start, problems_);
  }
  return ConfigReader(text_, file_, *v, key_path(key), start, problems_);
}

void ConfigReader::ignore(std::span<const std::string_view> keys) {
  for (const auto k : keys) {
    read_.emplace(k);
  }
}

void ConfigReader::refuse_unread(const std::string& what, const std::string& hint) {
  std::vector<std::string> known(read_.begin(), read_.end());
  for (const auto& [key, unused] : object_.items()) {
    if (read_.contains(key)) {
      continue;
    }
    const std::string near = core::closest_match(key, known);
    error(key, "unknown key in " + what, near.empty() ? hint : "did you mean '" + near + "'?");
  }
}

}  // namespace codesim::llm
