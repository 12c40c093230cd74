// fork + pipe per child; poll over the pipes of the running ones.
#include "sim/study/isolated.hpp"

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <stdexcept>

#include "models/kernels/threads.hpp"
#include "sim/core/error.hpp"

namespace codesim::study {
namespace {

// The child's report on its pipe: one tag byte ('R' result, 'I' input error, 'E' other error),
// then the text.
void write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return;
    }
    done += static_cast<std::size_t>(n);
  }
}

[[noreturn]] void run_child(const IsolatedWork& work, int fd) {
  std::string report;
  int code = 0;
  kernels::run_on_one_thread();  // the parent's OpenMP threads did not come along
  std::signal(SIGINT, SIG_DFL);  // not a Python parent's handler, which this child never runs
  try {
    report = "R" + work();
  } catch (const core::InputError& e) {
    report = std::string("I") + e.what();
    code = 2;
  } catch (const std::exception& e) {
    report = std::string("E") + e.what();
    code = 1;
  } catch (...) {
    report = "Eunknown exception";
    code = 1;
  }
  write_all(fd, report);
  ::close(fd);
  std::fflush(nullptr);
  _exit(code);  // no atexit handlers, no destructors of the parent's objects
}

struct Running {
  std::size_t index = 0;
  pid_t pid = -1;
  int fd = -1;
  std::string received;
};

Running start(std::size_t index, const IsolatedWork& work) {
  int fds[2];
  if (::pipe(fds) != 0) {
    throw std::runtime_error("cannot create a pipe for an isolated run");
  }
  std::fflush(nullptr);  // buffered output must not be written twice
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::runtime_error("cannot fork an isolated run");
  }
  if (pid == 0) {
    ::close(fds[0]);
    run_child(work, fds[1]);
  }
  ::close(fds[1]);
  return {index, pid, fds[0], {}};
}

IsolatedOutcome finish(Running& r) {
  ::close(r.fd);
  int status = 0;
  while (::waitpid(r.pid, &status, 0) < 0 && errno == EINTR) {
  }
  IsolatedOutcome o;
  const char tag = r.received.empty() ? '\0' : r.received.front();
  const std::string text = r.received.empty() ? "" : r.received.substr(1);
  if (WIFEXITED(status) && tag == 'R' && WEXITSTATUS(status) == 0) {
    o.exit_code = 0;
    o.payload = text;
  } else if (WIFEXITED(status) && (tag == 'I' || tag == 'E')) {
    o.exit_code = tag == 'I' ? 2 : 1;
    o.error = text;
  } else if (WIFSIGNALED(status)) {
    o.error = "killed by signal " + std::to_string(WTERMSIG(status));
  } else {
    o.error = "exited with code " + std::to_string(WEXITSTATUS(status)) + " without a result";
  }
  return o;
}

// Kills and reaps every running child.
void kill_all(std::vector<Running>& running) {
  for (Running& r : running) {
    ::kill(r.pid, SIGKILL);
    finish(r);
  }
  running.clear();
}

}  // namespace

std::vector<IsolatedOutcome> run_isolated(
    const std::vector<IsolatedWork>& works, int jobs,
    const std::function<void(std::size_t, const IsolatedOutcome&)>& on_done,
    const StopAsked& stop) {
  std::vector<IsolatedOutcome> out(works.size());
  std::vector<Running> running;
  std::size_t next = 0;
  try {
    while (next < works.size() || !running.empty()) {
      while (next < works.size() && static_cast<int>(running.size()) < std::max(1, jobs)) {
        running.push_back(start(next, works[next]));
        ++next;
      }
      std::vector<pollfd> fds;
      for (const auto& r : running) {
        fds.push_back({r.fd, POLLIN, 0});
      }
      const int ready = ::poll(fds.data(), fds.size(), stop ? 100 : -1);
      if (stop && stop()) {
        throw Stopped();
      }
      if (ready < 0) {
        if (errno == EINTR) {
          continue;
        }
        throw std::runtime_error("poll failed while waiting for isolated runs");
      }
      for (std::size_t i = fds.size(); i-- > 0;) {
        if (fds[i].revents == 0) {
          continue;
        }
        char buffer[65536];
        const ssize_t n = ::read(running[i].fd, buffer, sizeof buffer);
        if (n > 0) {
          running[i].received.append(buffer, static_cast<std::size_t>(n));
          continue;
        }
        if (n < 0 && errno == EINTR) {
          continue;
        }
        IsolatedOutcome o = finish(running[i]);  // end of file: the child has written all
        const std::size_t index = running[i].index;
        running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
        out[index] = std::move(o);
        if (on_done) {
          on_done(index, out[index]);
        }
      }
    }
  } catch (...) {
    kill_all(running);  // a stop, or what on_done threw: no child outlives the call
    throw;
  }
  return out;
}

}  // namespace codesim::study
