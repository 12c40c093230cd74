// fork + execv of /proc/self/exe, outputs through temporary files.
#include "sim/cli/child_process.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "sim/core/text.hpp"

namespace codesim::cli {
namespace {

// A started child: its pid and where its outputs go.
struct Started {
  pid_t pid = -1;
  std::filesystem::path dir;
};

Started start_self(const std::vector<std::string>& args) {
  namespace fs = std::filesystem;
  // Exec through the /proc link itself, not the path it names: a rebuilt binary (a new file at
  // that path) must not join a sweep that the old one started.
  const std::string self = "/proc/self/exe";
  char pattern[] = "/tmp/codesim_child_XXXXXX";
  if (mkdtemp(pattern) == nullptr) {
    throw std::runtime_error("cannot create a temporary directory for a child run");
  }
  Started s{-1, fs::path(pattern)};
  const std::string out = (s.dir / "out").string();
  const std::string err = (s.dir / "err").string();
  std::vector<std::string> argv_strings{self};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_strings) {
    argv.push_back(a.data());
  }
  argv.push_back(nullptr);
  std::fflush(nullptr);
  s.pid = fork();
  if (s.pid < 0) {
    fs::remove_all(s.dir);
    throw std::runtime_error("cannot start a child codesim");
  }
  if (s.pid == 0) {
    if (std::freopen(out.c_str(), "w", stdout) == nullptr ||
        std::freopen(err.c_str(), "w", stderr) == nullptr) {
      _exit(127);
    }
    execv(argv[0], argv.data());
    _exit(127);
  }
  return s;
}

ChildResult collect(const Started& s, int status) {
  ChildResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = core::read_file(s.dir / "out");
  r.err = core::read_file(s.dir / "err");
  std::filesystem::remove_all(s.dir);
  return r;
}

ChildResult finish(const Started& s) {
  int status = 0;
  waitpid(s.pid, &status, 0);
  return collect(s, status);
}

}  // namespace

std::string ChildResult::error_message() const {
  std::string message = err;
  while (!message.empty() && message.back() == '\n') {
    message.pop_back();
  }
  return message;
}

ChildResult run_self(const std::vector<std::string>& args) {
  return finish(start_self(args));
}

std::vector<ChildResult> run_self_all(const std::vector<std::vector<std::string>>& runs, int jobs,
                                      const OnChildDone& on_done) {
  std::vector<ChildResult> results(runs.size());
  std::vector<std::pair<std::size_t, Started>> running;
  std::size_t next = 0;
  while (next < runs.size() || !running.empty()) {
    while (next < runs.size() && static_cast<int>(running.size()) < std::max(1, jobs)) {
      running.emplace_back(next, start_self(runs[next]));
      ++next;
    }
    // Poll only our own children (an MPI runtime may have others), 10 ms apart.
    bool ended = false;
    for (auto it = running.begin(); it != running.end();) {
      int status = 0;
      if (waitpid(it->second.pid, &status, WNOHANG) != it->second.pid) {
        ++it;
        continue;
      }
      results[it->first] = collect(it->second, status);
      if (on_done) {
        on_done(it->first, results[it->first]);
      }
      it = running.erase(it);
      ended = true;
    }
    if (!ended) {
      usleep(10'000);
    }
  }
  return results;
}

}  // namespace codesim::cli
