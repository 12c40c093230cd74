// Temp-file-and-rename writer.
#include "sim/report/atomic_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace codesim::report {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& reason) {
  throw OutputError("cannot write '" + path + "': " + reason);
}

// Writes and flushes `content` to `path`, or throws with errno's reason.
void write_to(const std::string& path, const std::string& content, const std::string& named) {
  errno = 0;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  out.flush();
  out.close();
  if (!out) {
    fail(named, errno != 0 ? std::strerror(errno) : "the write failed");
  }
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& content) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  std::error_code ec;
  const fs::file_status status = fs::status(target, ec);
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    if (fs::is_directory(status)) {
      fail(path, "it is a directory");
    }
    write_to(path, content, path);  // a device or a FIFO: written in place, never replaced
    return;
  }
  if (target.has_parent_path()) {
    fs::create_directories(target.parent_path(), ec);
  }
  const std::string temporary = path + ".tmp";
  try {
    write_to(temporary, content, path);
  } catch (const OutputError&) {
    fs::remove(temporary, ec);
    throw;
  }
  fs::rename(temporary, target, ec);
  if (ec) {
    fs::remove(temporary, ec);
    fail(path, ec.message());
  }
}

}  // namespace codesim::report
