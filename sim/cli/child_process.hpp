// Running codesim itself in a child process: SimGrid allows one engine per process, so commands
// that simulate several scenarios (compare, sweep) run each in its own codesim.
#pragma once

#include <string>
#include <vector>

namespace codesim::cli {

struct ChildResult {
  int exit_code = -1;  // -1: killed by a signal
  std::string out;
  std::string err;
};

// Runs this executable with `args` (no shell), waits, and returns its exit code and output.
ChildResult run_self(const std::vector<std::string>& args);

// Runs this executable once per argument list, at most `jobs` at a time; results in order.
std::vector<ChildResult> run_self_all(const std::vector<std::vector<std::string>>& runs, int jobs);

}  // namespace codesim::cli
