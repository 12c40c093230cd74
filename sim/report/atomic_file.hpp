// Writing an output file so that a reader never sees it half-written.
#pragma once

#include <stdexcept>
#include <string>

namespace codesim::report {

// An output that could not be written: its path and the system's reason.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Writes `content` to `path + ".tmp"`, syncs it to the disk (fsync), closes it, then renames it over `path`. Creates missing
// parent directories. A path that is not a regular file (a device, a FIFO) is written in place,
// never replaced. Throws OutputError ("cannot write 'path': reason") on failure.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace codesim::report
