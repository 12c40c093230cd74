// Stage 4 of a training step's assembly (step_program.hpp): one pipeline rank's chunks as tasks
// on its three streams, from the values of the stages before (schedule, piece costs, placement,
// parameters). Per layer and pass the pieces run in the profile's order, each with the
// communication it needs: EP dispatch and combine, TP and CP collectives, ZeRO-3 parameter
// gathers, gradient buckets reduce-scattered once final, pipeline sends. What the rank waits for
// from its neighbours is left as waits for stage 5 (link_pipeline) to resolve.
#pragma once

#include <array>
#include <map>
#include <tuple>
#include <vector>

#include "sim/workload/piece_costs.hpp"
#include "sim/workload/schedule.hpp"
#include "sim/workload/stage_placement.hpp"
#include "sim/workload/step_params.hpp"
#include "sim/workload/step_task.hpp"

namespace codesim::workload {

struct StepSpec;

// The values every rank's program is built from: the spec and what stages 1-3 made of it.
struct StepPlan {
  const StepSpec& spec;
  const PipelineSchedule& schedule;
  const PieceCosts& costs;
  const std::vector<StageLayers>& placement;
  const StepParams& params;
};

// A micro-batch of one direction at one stage: what a pipeline send carries.
using StageKey = std::tuple<int, int, int>;  // direction, stage, micro-batch

// A task that waits for the neighbouring stage's send of `key` (forward: activations from stage
// - 1; backward: gradients from stage + 1).
struct PipelineWait {
  int task = -1;  // in the rank's own numbering
  bool forward = true;
  StageKey key;
};

// Task ids and dependencies are the rank's own, from 0; stage 5 renumbers them.
struct RankProgram {
  int rank = 0;
  std::vector<StepTask> tasks;
  std::vector<PipelineWait> waits;
  std::map<StageKey, int> forward_sent;   // the send task of each micro-batch's activations
  std::map<StageKey, int> backward_sent;  // and of its gradients
  std::array<int, kStepStreams> last{-1, -1, -1};  // per stream: its last task, -1 for none
};

RankProgram build_rank_program(const StepPlan& plan, int rank);

}  // namespace codesim::workload
