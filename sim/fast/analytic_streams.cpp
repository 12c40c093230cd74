// Critical path of a stream program, transfers timed alone by their bottleneck.
#include "sim/fast/analytic_streams.hpp"

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
  const auto spans = core::list_schedule(comm::task_graph(program), [&](int id, double ready) {
    const comm::StreamTask& task = program.tasks[static_cast<std::size_t>(id)];
    double end = ready + task.duration.value;
    if (task.transfer >= 0) {
      end += transfer[static_cast<std::size_t>(task.transfer)];
    }
    return core::TaskSpan{ready, end};
  });
  std::vector<comm::TaskTiming> out;
  out.reserve(spans.size());
  for (const core::TaskSpan& s : spans) {
    out.push_back({core::Seconds(s.start), core::Seconds(s.end)});
  }
  return out;
}

}  // namespace codesim::fast
