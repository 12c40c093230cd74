// Replays a training step's stream program (comm/step_streams.hpp) on the SimGrid platform.
#pragma once

#include "sim/comm/step_streams.hpp"
#include "sim/engine/platform.hpp"

namespace codesim::engine {

// Throws core::SimulationError when the program cannot run.
comm::StepTimeline replay_step(Platform& platform, const workload::StepProgram& program,
                               const comm::StepNetwork& network);

}  // namespace codesim::engine
