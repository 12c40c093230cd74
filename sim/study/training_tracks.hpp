// A replayed training step's per-rank tracks: each pipeline rank's clock and board power in its
// lane, and, when the run keeps its trace, the step as a trace with its simulated times and each
// rank's power and memory counter tracks (the Chrome trace's).
#pragma once

#include <vector>

#include "models/hardware/hardware_spec.hpp"
#include "sim/comm/step_streams.hpp"
#include "sim/metrics/run_result.hpp"
#include "sim/study/training.hpp"
#include "sim/workload/step_program.hpp"

namespace codesim::study {

// Each pipeline rank's clock (`clocks`, fractions of the top one) and its board's power computing
// (its kernels' energy over their time at that clock) and waiting.
void power_lanes(metrics::RunResult& r, const workload::StepProgram& program,
                 const std::vector<double>& clocks, const hardware::PowerSpec& power);

// The step program as a trace, its simulated times and each rank's power and memory tracks, into
// `run` (its result's lanes already filled).
void keep_trace(TrainingRun& run, const workload::StepProgram& program,
                const comm::StepTimeline& timeline);

}  // namespace codesim::study
