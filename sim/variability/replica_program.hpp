// A replayed step as the program every replica runs: per task of the folded program, the time it
// took on its stream (from either tier's timeline), the part of it its transfer took, whose
// pace it follows (its GPU's compute, its group's slowest NIC) and the group it synchronizes
// with. The GPUs of pipeline rank r are r x G .. r x G + G - 1 (G = shape.gpus_per_rank(), as in
// comm/step_streams.hpp); GPU j of a rank sends down the pipeline to GPU j of the next.
#pragma once

#include <vector>

#include "sim/comm/step_streams.hpp"
#include "sim/workload/step_program.hpp"

namespace codesim::variability {

// Whom a task waits for before it starts, among the G GPUs of its rank: none, or its tensor-,
// context- or expert-parallel group, or the replicas holding the same dense or expert
// parameters (data parallelism).
enum class Group { own = 0, tp, cp, ep, dp_dense, dp_experts };
inline constexpr int kGroups = 6;

struct ReplicaTask {
  int rank = 0;
  Group group = Group::own;
  bool compute = false;  // on the compute stream: its time follows its GPU's speed
  double own = 0;        // seconds of its own work (compute, or a comm kernel's launch)
  double network = 0;    // seconds its transfer took (follows the group's slowest NIC)
  bool crosses_nodes = false;
  int peer_rank = -1;  // a pipeline send: the rank it sends to
};

struct ReplicaProgram {
  workload::StepShape shape;
  std::vector<ReplicaTask> tasks;
  std::vector<int> order;  // tasks in an order that runs each after its predecessors
  // Per task its predecessors (stream predecessor and dependencies), compressed: task i's are
  // preds[pred_begin[i] .. pred_begin[i + 1]).
  std::vector<int> pred_begin;
  std::vector<int> preds;
  // Per group kind: the group key of each of a rank's G GPUs, and how many groups there are.
  std::vector<std::vector<int>> group_key;
  std::vector<int> group_count;
  // GPUs of a rank that TP, CP and EP bind together: consecutive blocks of this many.
  int unit_gpus = 1;
};

// The folded program and its replayed timeline as every replica's program.
ReplicaProgram replica_program(const workload::StepProgram& program,
                               const comm::StepTimeline& timeline, const workload::StepShape& shape,
                               int gpus_per_node);

}  // namespace codesim::variability
