// Stream program -> analytic stream times.
#include "sim/fast/fast_replay.hpp"

#include "sim/fast/analytic_streams.hpp"

namespace codesim::fast {

comm::StepTimeline replay_step_analytic(const topologies::TrafficRouter& router,
                                        const workload::StepProgram& program,
                                        const comm::StepNetwork& network) {
  comm::StreamProgram sp = comm::step_stream_program(router, program, network);
  std::vector<comm::TaskTiming> tasks = run_streams_analytic(sp, router);
  return comm::step_timeline(std::move(sp), std::move(tasks));
}

}  // namespace codesim::fast
