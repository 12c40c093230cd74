// Bounded, non-blocking reads of input files.
#include "sim/core/input_file.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/error.hpp"

namespace codesim::core {
namespace {

[[noreturn]] void refuse(const std::string& path, const std::string& message,
                         const std::string& hint = "") {
  throw InputError(Diagnostic{{path, 0, 0}, "", message, hint});
}

}  // namespace

std::string read_input_file(const std::string& path, const std::string& what,
                            std::uintmax_t max_bytes) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) {
    refuse(path, "cannot read " + what);
  }
  if (fs::is_directory(status)) {
    refuse(path, what + " is a directory", "give the file itself");
  }
  if (!fs::is_regular_file(status)) {
    refuse(path, what + " is not a regular file (a FIFO, a device or a socket)",
           "copy what it holds into a file");
  }
  const std::uintmax_t size = fs::file_size(path, ec);
  if (!ec && size > max_bytes) {
    refuse(path, what + " is " + std::to_string(size) + " bytes, over the limit of " +
                     std::to_string(max_bytes) + " bytes");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    refuse(path, "cannot read " + what);
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace codesim::core
