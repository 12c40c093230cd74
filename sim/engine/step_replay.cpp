// Stream program -> SimGrid.
#include "sim/engine/step_replay.hpp"

namespace codesim::engine {

comm::StepTimeline replay_step(Platform& platform, const workload::StepProgram& program,
                               const comm::StepNetwork& network) {
  comm::StreamProgram sp = comm::step_stream_program(platform.router(), program, network);
  std::vector<comm::TaskTiming> tasks = platform.run_streams(sp);
  return comm::step_timeline(std::move(sp), std::move(tasks));
}

}  // namespace codesim::engine
