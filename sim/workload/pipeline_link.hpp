// Stage 5 of a training step's assembly (step_program.hpp): the ranks' programs in one task list,
// rank after rank, renumbered, each pipeline wait depending on the neighbouring stage's send.
#pragma once

#include <array>
#include <vector>

#include "sim/workload/rank_program.hpp"

namespace codesim::workload {

struct LinkedTasks {
  std::vector<StepTask> tasks;
  std::vector<std::array<int, kStepStreams>> last;  // per rank and stream, in the new numbering
};

// Throws std::logic_error when a rank waits for a send that no rank makes.
LinkedTasks link_pipeline(const std::vector<RankProgram>& ranks);

}  // namespace codesim::workload
