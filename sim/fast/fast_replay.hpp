// The fast tier: a training step's stream program (comm/step_streams.hpp) timed on its critical
// path without SimGrid, each transfer alone on its bottleneck link (analytic_streams.hpp).
#pragma once

#include "sim/comm/step_streams.hpp"

namespace codesim::fast {

comm::StepTimeline replay_step_analytic(const topologies::TrafficRouter& router,
                                        const workload::StepProgram& program,
                                        const comm::StepNetwork& network);

}  // namespace codesim::fast
