// Validity of a stream program and an order to run it in (Kahn's algorithm over stream orders
// and dependencies).
#include "sim/comm/stream_check.hpp"

#include <string>

#include "sim/core/error.hpp"

namespace codesim::comm {
namespace {

// Successor lists: each task's stream successor and the tasks that depend on it.
std::vector<std::vector<std::size_t>> successors(const StreamProgram& program) {
  std::vector<std::vector<std::size_t>> next(program.tasks.size());
  for (const auto& stream : program.streams) {
    for (std::size_t i = 1; i < stream.size(); ++i) {
      next[static_cast<std::size_t>(stream[i - 1])].push_back(static_cast<std::size_t>(stream[i]));
    }
  }
  for (std::size_t t = 0; t < program.tasks.size(); ++t) {
    for (const int d : program.tasks[t].deps) {
      next[static_cast<std::size_t>(d)].push_back(t);
    }
  }
  return next;
}

}  // namespace

std::vector<int> topological_order(const std::vector<std::vector<std::size_t>>& next) {
  std::vector<int> indegree(next.size(), 0);
  for (const auto& s : next) {
    for (const std::size_t n : s) {
      ++indegree[n];
    }
  }
  std::vector<int> ready;
  for (std::size_t n = 0; n < next.size(); ++n) {
    if (indegree[n] == 0) {
      ready.push_back(static_cast<int>(n));
    }
  }
  for (std::size_t k = 0; k < ready.size(); ++k) {
    for (const std::size_t s : next[static_cast<std::size_t>(ready[k])]) {
      if (--indegree[s] == 0) {
        ready.push_back(static_cast<int>(s));
      }
    }
  }
  return ready;
}

void check_stream_program(const StreamProgram& program) {
  const std::size_t count = program.tasks.size();
  std::vector<char> listed(count, 0);
  for (const auto& stream : program.streams) {
    for (const int t : stream) {
      if (t < 0 || static_cast<std::size_t>(t) >= count || listed[static_cast<std::size_t>(t)]) {
        throw core::SimulationError("stream program: task " + std::to_string(t) +
                                    " is out of range or on two streams");
      }
      listed[static_cast<std::size_t>(t)] = 1;
    }
  }
  for (const auto& task : program.tasks) {
    for (const int d : task.deps) {
      if (d < 0 || static_cast<std::size_t>(d) >= count) {
        throw core::SimulationError("stream program: dependency " + std::to_string(d) +
                                    " is out of range");
      }
    }
    if (task.transfer >= static_cast<int>(program.transfers.size())) {
      throw core::SimulationError("stream program: transfer " + std::to_string(task.transfer) +
                                  " is out of range");
    }
  }
  if (topological_order(successors(program)).size() != count) {
    throw core::SimulationError("stream program: its dependencies and stream orders form a cycle");
  }
}

std::vector<int> stream_program_order(const StreamProgram& program) {
  return topological_order(successors(program));
}

}  // namespace codesim::comm
