// Runs the codesim binary as a user would and captures exit code, stdout and stderr.
#pragma once

#include <string>

namespace codesim::testing {

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// `args` is appended to the binary path as shell words; runs in the source directory.
CliResult run_codesim(const std::string& args);

// The contents of a file under the source directory.
std::string read_source_file(const std::string& relative_path);

}  // namespace codesim::testing
