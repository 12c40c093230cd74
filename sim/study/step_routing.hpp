// The routing plans of a training step's EP group from the reference gate, and the rows the
// busiest GPU's experts take per micro-batch.
#pragma once

#include <vector>

#include "models/kernels/batch_routing.hpp"
#include "sim/config/scenario.hpp"
#include "sim/core/note.hpp"
#include "sim/study/training.hpp"
#include "sim/workload/step_shape.hpp"

namespace codesim::study {

// The routing plans of the step's EP group (none without expert parallelism), the rows each
// expert of the busiest GPU takes per micro-batch, and the routing's note.
struct Routing {
  std::vector<kernels::RoutingPlan> plans;
  std::vector<double> busiest_rows;
  std::vector<core::Note> notes;
};

// s.routing.plans batches through the reference gate (from `cache` when it has them; it may be
// null).
Routing route_step(const config::Scenario& s, const workload::StepShape& shape,
                   RoutingCache* cache);

}  // namespace codesim::study
