// Validity of a stream program and an order to run it in (its streams as the list scheduler's
// queues).
#include "sim/comm/stream_check.hpp"

#include <string>

#include "sim/core/error.hpp"

namespace codesim::comm {

core::TaskGraph task_graph(const StreamProgram& program) {
  core::TaskGraph g{.queues = program.streams, .deps = {}};
  g.deps.reserve(program.tasks.size());
  for (const auto& task : program.tasks) {
    g.deps.push_back(task.deps);
  }
  return g;
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
  if (core::run_order(task_graph(program)).size() != count) {
    throw core::SimulationError("stream program: its dependencies and stream orders form a cycle");
  }
}

std::vector<int> stream_program_order(const StreamProgram& program) {
  return core::run_order(task_graph(program));
}

}  // namespace codesim::comm
