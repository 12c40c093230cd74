// A training step as tasks for the ranks of one pipeline (one data-parallel replica): per rank a
// compute stream and a communication stream, each an ordered task list, with the data
// dependencies between tasks of any rank. Communication tasks name what moves (CommRef); the
// engine turns that into flows on the cluster (all EP peers of the stage, all DP replicas), so
// the other replicas are folded into this one: they run the same program at the same time.
//
// Per layer, pieces as in DeepSeek's profile (spec §9). A forward chunk runs, per layer,
// attn(F) -> dispatch(F) -> mlp(F) -> combine(F); a backward chunk, per layer from the last,
// combine(B) -> mlp(B) [-> mlp(W)] -> dispatch(B) -> attn(B) [-> attn(W)] (weight parts deferred
// to W chunks under zero bubble). An overlapped F&B pair interleaves a forward layer and a
// backward layer as the profile shows, so one micro-batch's all-to-all hides under the other's
// computation:
//
//   compute: attn(F) | mlp(B) | mlp(W) | mlp(F)   | attn(B)  | attn(W)
//   comm:    combine(B) | dispatch(F) | dispatch(B) | combine(F)
//
// Pipeline sends follow each chunk. Data-parallel traffic runs on a third stream of its own (as
// frameworks give it its own stream and process group): a layer's gradients are reduce-scattered
// in a bucket as soon as its weight part of the stage's last backward has run (every backward's
// under ZeRO-2 and 3), so gradient synchronization overlaps the last backward chunks; the
// optimizer step and the parameter all-gather (ZeRO-1 and 2) end the step.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/hardware/hardware_spec.hpp"
#include "models/llm/llm_spec.hpp"
#include "sim/core/units.hpp"
#include "sim/workload/piece_id.hpp"
#include "sim/workload/piece_model.hpp"
#include "sim/workload/schedule.hpp"
#include "sim/workload/stage_placement.hpp"
#include "sim/workload/step_trace.hpp"
#include "sim/workload/training_state.hpp"

namespace codesim::workload {

enum class CommKind {
  ep_dispatch,
  ep_combine,
  pp_send,
  dp_reduce_scatter,
  dp_all_gather,
  tp_all_gather,
  tp_reduce_scatter,
  tp_all_reduce,
  cp_all_gather,
  cp_reduce_scatter
};
std::string_view comm_kind_name(CommKind k);

struct CommRef {
  CommKind kind = CommKind::pp_send;
  int stage = -1;        // EP, DP: the stage whose group communicates
  int layer = -1;        // EP: picks the routing plan
  int micro_batch = -1;  // EP: picks the routing plan
  int direction = 0;
  bool gradient = false;  // EP: backward (dispatch(B) moves combine(F)'s bytes back, ...)
  int from_rank = -1;     // PP: pipeline ranks
  int to_rank = -1;
  core::Bytes bytes;     // PP: the message; DP: each rank's buffer
  bool experts = false;  // DP: expert parameters (synchronized across EP groups only)
};

// Per rank: computation; EP, PP, TP and CP communication; data-parallel communication.
enum class StepStream { compute = 0, comm = 1, data_parallel = 2 };
inline constexpr int kStepStreams = 3;

struct StepTask {
  int id = 0;
  int rank = 0;
  StepStream stream = StepStream::compute;
  core::Seconds duration;       // compute (or the communication stream's own kernels)
  std::optional<CommRef> comm;  // a transfer; its time comes from the network
  std::vector<int> deps;        // tasks it waits for besides its stream predecessor
  PieceId piece;                // attn(F), dispatch(B), send(F), recv(B), optimizer, ...
  int chunk = -1;               // index in the rank's schedule chunk list; -1 after the chunks
  ChunkKind chunk_kind = ChunkKind::forward;
};

struct StepSpec {
  const llm::LlmSpec* model = nullptr;
  hardware::GpuSpec gpu;
  PieceModel pieces;
  ScheduleMethod method = ScheduleMethod::dualpipe;
  int pp = 1;
  int virtual_stages = 1;  // interleaved-1f1b
  int micro_batches = 1;
  int tokens = 4096;  // per micro-batch and GPU
  int seq_len = 4096;
  int ep = 1;
  // Rows each expert of the busiest GPU takes per micro-batch (routing plan); empty: balanced.
  std::vector<double> busiest_expert_rows;
  int dp = 1;
  bool fp8_gemm = true;
  int comm_sms = 20;  // SMs DeepEP holds while it overlaps compute
  Recompute recompute = Recompute::none;
  // ZeRO stage: 1 optimizer state sharded over data parallelism (gradients accumulated over the
  // micro-batches, reduce-scattered per layer during the stage's last backward; parameters
  // all-gathered once per step); 2 gradients sharded too: each backward reduce-scatters its
  // layers' gradients; 3 parameters sharded too: each layer's parameters (the head's and the
  // embedding's with them) all-gathered before its forward and again before its backward. A
  // layer's gradients leave once its weight part has run (in the W chunk when deferred).
  int zero = 1;
  // Tensor parallelism over this many GPUs of a node: attention heads and FFN columns split,
  // per layer and pass an all-gather before and a reduce-scatter after attention and after the
  // dense FFN (sequence parallelism), or one all-reduce after each (without it), of the
  // micro-batch's BF16 activations; with tp_overlap the computation does not wait for them.
  int tp = 1;
  bool sequence_parallel = true;
  bool tp_overlap = false;
  // Context parallelism: each sequence's tokens over this many GPUs (`tokens` is the whole
  // micro-batch's), keys and values all-gathered over them before each attention forward, their
  // gradients reduce-scattered after each attention backward.
  int cp = 1;
};

struct StepProgram {
  PipelineSchedule schedule;
  std::vector<StageLayers> placement;  // per stage
  std::vector<StepTask> tasks;
  // Per stage, parameters and gradient bytes it synchronizes (for memory and DP traffic).
  std::vector<double> stage_dense_params;   // replicated over data parallelism
  std::vector<double> stage_expert_params;  // per GPU, after expert parallelism
};

// Throws core::KeyedError naming the scenario key at fault (ScheduleError for the schedule's
// conditions), std::invalid_argument for a spec no scenario can produce.
StepProgram build_step_program(const StepSpec& s);

// The program as a StepTrace (stream 0 compute, 1 communication; pieces and chunks as tags), for
// export and inspection.
StepTrace to_step_trace(const StepProgram& p);

}  // namespace codesim::workload
