// Temp-file-and-rename writer.
#include "sim/report/atomic_file.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace codesim::report {

void write_file_atomically(const std::string& path, const std::string& content) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  std::error_code ec;
  if (target.has_parent_path()) {
    fs::create_directories(target.parent_path(), ec);
  }
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << content;
    out.flush();
    if (!out) {
      fs::remove(temporary, ec);
      throw std::runtime_error("cannot write '" + path + "'");
    }
  }
  fs::rename(temporary, target, ec);
  if (ec) {
    fs::remove(temporary, ec);
    throw std::runtime_error("cannot write '" + path + "': " + ec.message());
  }
}

}  // namespace codesim::report
