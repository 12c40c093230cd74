// Critical path of a stream program, transfers timed alone by their bottleneck.
#include "sim/engine/analytic_streams.hpp"

#include <algorithm>

#include "sim/engine/link_folding.hpp"
#include "sim/engine/stream_check.hpp"

namespace codesim::engine {

std::vector<TaskTiming> run_streams_analytic(const StreamProgram& program,
                                             const topologies::TrafficRouter& router) {
  check_stream_program(program);
  const FoldedLinks links = fold_links(router);
  std::vector<double> transfer(program.transfers.size());
  for (std::size_t i = 0; i < transfer.size(); ++i) {
    transfer[i] = seconds_alone(program.transfers[i], router, links);
  }
  std::vector<int> previous(program.tasks.size(), -1);  // on the same stream
  for (const auto& stream : program.streams) {
    for (std::size_t i = 1; i < stream.size(); ++i) {
      previous[static_cast<std::size_t>(stream[i])] = stream[i - 1];
    }
  }
  std::vector<TaskTiming> out(program.tasks.size());
  for (const int id : stream_program_order(program)) {
    const auto i = static_cast<std::size_t>(id);
    const StreamTask& task = program.tasks[i];
    double start = previous[i] >= 0 ? out[static_cast<std::size_t>(previous[i])].end.value : 0;
    for (const int d : task.deps) {
      start = std::max(start, out[static_cast<std::size_t>(d)].end.value);
    }
    double end = start + task.duration.value;
    if (task.transfer >= 0) {
      end += transfer[static_cast<std::size_t>(task.transfer)];
    }
    out[i] = {core::Seconds(start), core::Seconds(end)};
  }
  return out;
}

}  // namespace codesim::engine
