// Formatting of input diagnostics.
#include "sim/core/error.hpp"

namespace codesim::core {

std::string Diagnostic::to_string() const {
  std::string out = where.file;
  if (where.line > 0) {
    out += ":" + std::to_string(where.line) + ":" + std::to_string(where.column);
  }
  out += ": error: ";
  if (!key_path.empty()) {
    out += key_path + ": ";
  }
  out += message;
  if (!hint.empty()) {
    out += "\n  hint: " + hint;
  }
  return out;
}

namespace {
std::string join(const std::vector<Diagnostic>& ds) {
  std::string out;
  for (const auto& d : ds) {
    if (!out.empty()) {
      out += '\n';
    }
    out += d.to_string();
  }
  return out;
}
}  // namespace

InputError::InputError(std::vector<Diagnostic> diagnostics)
    : std::runtime_error(join(diagnostics)), diagnostics_(std::move(diagnostics)) {}

InputError::InputError(Diagnostic diagnostic)
    : InputError(std::vector<Diagnostic>{std::move(diagnostic)}) {}

}  // namespace codesim::core
