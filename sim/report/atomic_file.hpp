// Writing an output file so that a reader never sees it half-written.
#pragma once

#include <string>

namespace codesim::report {

// Writes `content` to `path + ".tmp"`, flushes, then renames it over `path`. Creates missing
// parent directories. Throws std::runtime_error naming the path on failure.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace codesim::report
