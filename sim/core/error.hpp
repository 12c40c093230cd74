// Input errors that carry where they come from (file, line, column, key path) and a hint.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace codesim::core {

// 1-based line and column in a text file; 0 means unknown.
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;
};

// The 1-based line and column of byte `offset` in `text`.
SourceLocation location_of_offset(std::string_view text, std::size_t offset,
                                  const std::string& file);

struct Diagnostic;
// The diagnostic for a JSON error a parser reported at byte `byte` (1-based, as nlohmann counts;
// 0 = no position, e.g. a number too large for a double) with message `what`: located in the
// text, the parser's prefix dropped.
Diagnostic json_syntax_error(std::string_view text, std::size_t byte, const std::string& what,
                             const std::string& file);

// One problem in an input: printed as "file:line:col: key.path: message" then "  hint: ...".
struct Diagnostic {
  SourceLocation where;
  std::string key_path;  // empty when the problem is not about one key
  std::string message;
  std::string hint;  // empty when there is none

  std::string to_string() const;
};

// Bad input (scenario, model config, trace, CLI value): the CLI maps it to exit code 2.
// Holds every problem found, so that a user fixes them all in one pass.
class InputError : public std::runtime_error {
 public:
  explicit InputError(std::vector<Diagnostic> diagnostics);
  explicit InputError(Diagnostic diagnostic);
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::vector<Diagnostic> diagnostics_;
};

// A unit or value problem before its location is known; the caller wraps it in a Diagnostic.
class UnitError : public std::runtime_error {
 public:
  UnitError(std::string message, std::string hint)
      : std::runtime_error(std::move(message)), hint_(std::move(hint)) {}
  const std::string& hint() const { return hint_; }

 private:
  std::string hint_;
};

// A value that breaks a model's precondition below the config, naming the scenario key it comes
// from (`parallelism.pp`, `inference.redundant_experts`): a study reports it as an InputError at
// that key's place in the scenario file, so no caller has to guess which key was wrong.
class KeyedError : public std::invalid_argument {
 public:
  KeyedError(std::string key_path, const std::string& message, std::string hint = {})
      : std::invalid_argument(message), sources_{std::move(key_path)}, hint_(std::move(hint)) {}
  // A value derived from several keys: the error is the first one's unless the input wrote
  // another of them (config::scenario_error blames the first written).
  KeyedError(std::vector<std::string> sources, const std::string& message, std::string hint = {})
      : std::invalid_argument(message), sources_(std::move(sources)), hint_(std::move(hint)) {}
  const std::string& key_path() const { return sources_.front(); }
  const std::vector<std::string>& sources() const { return sources_; }
  const std::string& hint() const { return hint_; }

 private:
  std::vector<std::string> sources_;
  std::string hint_;
};

// The simulation itself failed (deadlock, engine error): exit code 1.
class SimulationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace codesim::core
