// Running codesim itself in a child process: SimGrid allows one engine per process, so commands
// that simulate several scenarios (compare, sweep) run each in its own codesim.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace codesim::cli {

struct ChildResult {
  int exit_code = -1;  // -1: killed by a signal
  std::string out;
  std::string err;
  // What the child said on stderr, without its trailing line breaks.
  std::string error_message() const;
};

// Runs this executable with `args` (no shell), waits, and returns its exit code and output.
ChildResult run_self(const std::vector<std::string>& args);

// Called as each child ends (in the order they end), with its index in `runs`.
using OnChildDone = std::function<void(std::size_t, const ChildResult&)>;

// Runs this executable once per argument list, at most `jobs` at a time; results in the order of
// `runs` whatever the order they end in.
std::vector<ChildResult> run_self_all(const std::vector<std::vector<std::string>>& runs, int jobs,
                                      const OnChildDone& on_done = {});

}  // namespace codesim::cli
