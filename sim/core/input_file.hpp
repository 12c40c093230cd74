// Reading an input file (a scenario, an include, a model config, a trace) as a user may give it:
// a regular file of bounded size, checked before it is opened, so that a FIFO never blocks and
// /dev/zero is never read.
#pragma once

#include <cstdint>
#include <string>

namespace codesim::core {

// The file's bytes. Throws InputError at the file: "cannot read <what>" when it is missing or
// unreadable, "<what> is a directory", "<what> is not a regular file (a FIFO, a device or a
// socket)", "<what> is N bytes, over the limit of M bytes" past `max_bytes` (`what`: "the
// scenario file", ...).
std::string read_input_file(const std::string& path, const std::string& what,
                            std::uintmax_t max_bytes);

// The limit for a scenario, an include or a model config: 16 MiB (configs are kilobytes).
inline constexpr std::uintmax_t kMaxConfigBytes = std::uintmax_t{16} << 20;

}  // namespace codesim::core
