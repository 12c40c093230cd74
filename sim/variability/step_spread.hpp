// The steps of a replayed training step under variability: about `spec.steps` draws by stratum of
// the number of fail-slow parts (speed_draw.hpp), each replayed over every replica (or the units
// order statistics pick); their weighted mean and percentiles.
#pragma once

#include "sim/comm/step_streams.hpp"
#include "sim/metrics/step_spread.hpp"
#include "sim/variability/variability_spec.hpp"
#include "sim/workload/step_program.hpp"

namespace codesim::variability {

metrics::StepSpread spread_steps(const workload::StepProgram& program,
                                 const comm::StepTimeline& timeline,
                                 const workload::StepShape& shape, int gpus_per_node,
                                 const VariabilitySpec& spec);

}  // namespace codesim::variability
