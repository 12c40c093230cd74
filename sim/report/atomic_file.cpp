// Temp-file-and-rename writer.
#include "sim/report/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace codesim::report {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& reason) {
  throw OutputError("cannot write '" + path + "': " + reason);
}

// Writes `content` to `path`, syncs it to the disk and closes it, or throws with errno's reason.
// A device or a FIFO (`in_place`) cannot be synced: its fsync's EINVAL is not a failure.
void write_to(const std::string& path, const std::string& content, const std::string& named,
              bool in_place) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    fail(named, std::strerror(errno));
  }
  const auto fail_closing = [&](int error) {
    ::close(fd);
    fail(named, std::strerror(error));
  };
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      fail_closing(n < 0 ? errno : ENOSPC);
    }
    written += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 && !(in_place && (errno == EINVAL || errno == EROFS))) {
    fail_closing(errno);
  }
  if (::close(fd) != 0) {
    fail(named, std::strerror(errno));
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
    write_to(path, content, path, true);  // a device or a FIFO: written in place, never replaced
    return;
  }
  if (target.has_parent_path()) {
    fs::create_directories(target.parent_path(), ec);
  }
  const std::string temporary = path + ".tmp";
  try {
    write_to(temporary, content, path, false);
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
