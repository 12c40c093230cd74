// Stage 6 of a training step's assembly (step_program.hpp): what ends a rank's step once its
// gradients are reduce-scattered (the buckets its chunks issued): the optimizer on its shard,
// then, under ZeRO-1 and 2, each stage's parameters all-gathered over the replicas.
#pragma once

#include <vector>

#include "sim/workload/rank_program.hpp"

namespace codesim::workload {

// Tasks numbered from `first_id`; they wait for the rank's last computation and its last
// data-parallel transfer (-1: none).
std::vector<StepTask> step_end(const StepPlan& plan, int rank, int first_id, int last_compute,
                               int last_data_parallel);

}  // namespace codesim::workload
