// Formatting of input diagnostics.
#include "sim/core/error.hpp"

namespace codesim::core {

SourceLocation location_of_offset(std::string_view text, std::size_t offset,
                                  const std::string& file) {
  SourceLocation loc{file, 1, 1};
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++loc.line;
      loc.column = 1;
    } else {
      ++loc.column;
    }
  }
  return loc;
}

Diagnostic json_syntax_error(std::string_view text, std::size_t byte, const std::string& what,
                             const std::string& file) {
  std::string reason = what;
  if (const auto p = reason.find("syntax error"); p != std::string::npos) {
    reason = reason.substr(p);
  } else if (const auto q = reason.find("] ");
             !reason.empty() && reason.front() == '[' && q != std::string::npos) {
    reason = reason.substr(q + 2);  // "[json.exception.out_of_range.406] number overflow ..."
  }
  const SourceLocation where =
      byte > 0 ? location_of_offset(text, byte - 1, file) : SourceLocation{file, 0, 0};
  return Diagnostic{where, "", "invalid JSON: " + reason, ""};
}

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
