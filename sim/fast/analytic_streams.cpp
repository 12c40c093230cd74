// Critical path of a stream program, transfers timed alone by their bottleneck.
#include "sim/fast/analytic_streams.hpp"

#include <algorithm>

#include "sim/comm/link_folding.hpp"
#include "sim/comm/stream_check.hpp"

namespace codesim::fast {

std::vector<comm::TaskTiming> run_streams_analytic(const comm::StreamProgram& program,
                                                   const topologies::TrafficRouter& router) {
  comm::check_stream_program(program);
  const comm::FoldedLinks links = comm::fold_links(router);
  std::vector<double> transfer(program.transfers.size());
  for (std::size_t i = 0; i < transfer.size(); ++i) {
    transfer[i] = comm::seconds_alone(program.transfers[i], router, links);
  }
  std::vector<int> previous(program.tasks.size(), -1);  // on the same stream
  for (const auto& stream : program.streams) {
    for (std::size_t i = 1; i < stream.size(); ++i) {
      previous[static_cast<std::size_t>(stream[i])] = stream[i - 1];
    }
  }
  std::vector<comm::TaskTiming> out(program.tasks.size());
  for (const int id : comm::stream_program_order(program)) {
    const auto i = static_cast<std::size_t>(id);
    const comm::StreamTask& task = program.tasks[i];
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

}  // namespace codesim::fast
