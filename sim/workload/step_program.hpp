// A training step as tasks for the ranks of one pipeline (one data-parallel replica): per rank a
// compute stream, a communication stream and a data-parallel stream, each an ordered task list,
// with the data dependencies between tasks of any rank. Communication tasks name what moves
// (CommRef); the engine turns that into flows on the cluster (all EP peers of the stage, all DP
// replicas), so the other replicas are folded into this one: they run the same program at the
// same time.
//
// Assembled by pure stages, each a function of the values before it (each file says its stage):
//
//   StepSpec (model, GPU, piece model, schedule method, StepShape)
//     1 make_schedule        (schedule.hpp)        chunks per pipeline rank
//     2 price_pieces         (piece_costs.hpp)     every layer's and the head's pieces, timed
//     3 place_layers         (stage_placement.hpp) layers per stage, balancing forward times
//       step_params          (step_params.hpp)     parameters per layer, block and stage
//     4 build_rank_program   (rank_program.hpp)    each rank's chunks as tasks, with their EP,
//                                                  TP, CP, ZeRO and gradient-bucket transfers
//     5 link_pipeline        (pipeline_link.hpp)   ranks joined, pipeline waits on sends
//     6 step_end             (step_end.hpp)        optimizer and parameter all-gathers
//   -> StepProgram
//
// Per layer, pieces as in DeepSeek's profile. A forward chunk runs, per layer,
// attn(F) -> dispatch(F) -> mlp(F) -> combine(F); a backward chunk, per layer from the last,
// combine(B) -> mlp(B) [-> mlp(W)] -> dispatch(B) -> attn(B) [-> attn(W)] (weight parts deferred
// to W chunks under zero bubble). An overlapped F&B pair interleaves a forward layer and a
// backward layer as the profile shows, so one micro-batch's all-to-all hides under the other's
// computation:
//
//   compute: attn(F) | mlp(B) | mlp(W) | mlp(F)   | attn(B)  | attn(W)
//   comm:    combine(B) | dispatch(F) | dispatch(B) | combine(F)
//
// Pipeline sends follow each chunk. Data-parallel traffic runs on the third stream (as
// frameworks give it its own stream and process group): a layer's gradients are reduce-scattered
// in a bucket as soon as its weight part of the stage's last backward has run (every backward's
// under ZeRO-2 and 3), so gradient synchronization overlaps the last backward chunks; the
// optimizer step and the parameter all-gather (ZeRO-1 and 2) end the step. ZeRO-3 gathers each
// layer's parameters before its forward and again before its backward. Tensor parallelism: per
// layer and pass an all-gather before and a reduce-scatter after attention and after the dense
// FFN (sequence parallelism), or one all-reduce after each, of the micro-batch's BF16
// activations. Context parallelism: keys and values all-gathered over the CP group before each
// attention forward, their gradients reduce-scattered after each attention backward.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/hardware/hardware_spec.hpp"
#include "models/llm/llm_spec.hpp"
#include "sim/core/units.hpp"
#include "sim/workload/optimizer_update.hpp"
#include "sim/workload/piece_id.hpp"
#include "sim/workload/piece_model.hpp"
#include "sim/workload/schedule.hpp"
#include "sim/workload/stage_placement.hpp"
#include "sim/workload/step_shape.hpp"
#include "sim/workload/step_task.hpp"
#include "sim/workload/step_trace.hpp"

namespace codesim::workload {

struct StepSpec {
  const llm::LlmSpec* model = nullptr;
  hardware::GpuSpec gpu;
  PieceModel pieces;
  ScheduleMethod method = ScheduleMethod::dualpipe;
  StepShape shape;
  // Rows each expert of the busiest GPU takes per micro-batch (routing plan); empty: balanced.
  std::vector<double> busiest_expert_rows;
  bool fp8_gemm = true;
  int comm_sms = 20;  // SMs DeepEP holds while it overlaps compute
  OptimizerKernels optimizer = OptimizerKernels::fused;  // how AdamW's update runs
  // Each stage's SM clock over the top one, as the power governor sets it (clock_model.hpp);
  // empty: every stage at the top clock.
  std::vector<double> stage_clock;
};

struct StepProgram {
  PipelineSchedule schedule;
  std::vector<StageLayers> placement;  // per stage
  std::vector<StepTask> tasks;
  // Per stage, parameters and gradient bytes it synchronizes (for memory and DP traffic).
  std::vector<double> stage_dense_params;   // replicated over data parallelism
  std::vector<double> stage_expert_params;  // per GPU, after expert parallelism
  // Per rank, its kernels' work in the step at the top clock by kind of work (its power).
  std::vector<cost::Work> rank_work;
};

// Throws core::KeyedError naming the scenario key at fault (ScheduleError for the schedule's
// conditions), std::invalid_argument for a spec no scenario can produce.
StepProgram build_step_program(const StepSpec& s);

// The program as a StepTrace (stream 0 compute, 1 communication; pieces and chunks as tags), for
// export and inspection.
StepTrace to_step_trace(const StepProgram& p);

}  // namespace codesim::workload
