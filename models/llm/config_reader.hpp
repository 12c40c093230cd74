// Typed reads of one JSON object of a model config: each value checked, each problem located at
// its key in the file, and the keys read remembered, so that the keys nobody read can be refused.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/error.hpp"

namespace codesim::llm {

// Where the `nth` (0-based) `"key":` stands in `text` from byte `from` on (a quoted key followed by
// a colon, so a string value that spells the key is not taken for it); no line when absent.
core::SourceLocation key_location(std::string_view text, std::string_view key,
                                  const std::string& file, std::size_t from = 0, int nth = 0);

class ConfigReader {
 public:
  // `object`: the JSON object read (the document, or one nested in it such as `text_config`),
  // `path`: its key path in the document ("" for the document), `start`: the byte of the text
  // where it begins (keys are looked for from there). Problems go to `problems`.
  ConfigReader(std::string_view text, const std::string& file, const nlohmann::json& object,
               std::string path, std::size_t start, std::vector<core::Diagnostic>& problems);

  // Present and not null; either way the key counts as read.
  bool has(std::string_view key);
  // Present and null (where a family's class tells null from absent).
  bool is_null(std::string_view key);
  // An integer in [min_value, max_value]; `fallback` when absent or null (nullopt: required).
  int integer(std::string_view key, int min_value, std::optional<int> fallback,
              int max_value = 1'000'000'000);
  // A positive number; `fallback` when absent or null.
  double number(std::string_view key, double fallback);
  bool boolean(std::string_view key, bool fallback);
  // A string, one of `allowed`; `fallback` when absent or null.
  std::string choice(std::string_view key, std::span<const std::string_view> allowed,
                     std::string_view fallback);
  // A list of integers or of strings; empty when absent or null.
  std::vector<long long> integers(std::string_view key);
  std::vector<std::string> strings(std::string_view key);
  // The object under `key` (required: a missing one is a problem, and an empty object read).
  ConfigReader nested(std::string_view key);

  // Keys known not to change the simulated shapes: counted as read.
  void ignore(std::span<const std::string_view> keys);
  // Every key neither read nor ignored is refused: `what` names the config's kind.
  void refuse_unread(const std::string& what, const std::string& hint);

  void error(std::string_view key, std::string message, std::string hint = {});
  void missing(std::string_view key);
  // "text_config.num_local_experts" for a key of a nested object.
  std::string key_path(std::string_view key) const;
  bool ok() const { return problems_.empty(); }

 private:
  const nlohmann::json* value(std::string_view key);
  core::SourceLocation locate(std::string_view key) const;
  static std::string describe(const nlohmann::json& v);

  std::string_view text_;
  const std::string& file_;
  const nlohmann::json& object_;
  std::string path_;
  std::size_t start_ = 0;
  std::vector<core::Diagnostic>& problems_;
  std::set<std::string, std::less<>> read_;
};

}  // namespace codesim::llm
