// Work run in a forked child of the calling process, its result back over a pipe: SimGrid allows
// one engine per process, so a study that simulates several scenarios (sweep, compare, search)
// runs each in a child of its own. No exec: it works the same from the CLI, a test or any program
// linking the library. The child's reference kernels run on one thread (kernels/threads.hpp):
// the parent's OpenMP threads do not survive the fork.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace codesim::study {

struct IsolatedOutcome {
  // 0: the work returned; 2: it threw core::InputError; 1: any other exception; -1: the child
  // died (a signal, or it exited without a word).
  int exit_code = -1;
  std::string payload;  // what the work returned (exit code 0)
  std::string error;    // what it threw, or how the child died
};

// The work returns its result as bytes (the parent decodes them).
using IsolatedWork = std::function<std::string()>;

// Asked about ten times a second while children run: true stops them all (a caller's Ctrl-C).
using StopAsked = std::function<bool()>;

// What run_isolated throws when `stop` said so, after killing and reaping the running children.
struct Stopped : std::runtime_error {
  Stopped() : std::runtime_error("stopped: the isolated runs were killed") {}
};

// Runs each work in a forked child, at most `jobs` at a time; `on_done` hears each as it ends (in
// the order they end, with its index). Results in the order of `works`. A child takes SIGINT's
// default action (a terminal's Ctrl-C ends it with its parent's group).
std::vector<IsolatedOutcome> run_isolated(
    const std::vector<IsolatedWork>& works, int jobs,
    const std::function<void(std::size_t, const IsolatedOutcome&)>& on_done = {},
    const StopAsked& stop = {});

}  // namespace codesim::study
