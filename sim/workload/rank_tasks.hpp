// One pipeline rank's tasks as rank_program.cpp creates them: the task list, and the
// communication each computation needs (TP and CP collectives, ZeRO-3 parameter gathers,
// gradient buckets reduce-scattered once final, pipeline sends).
#pragma once

#include <set>
#include <vector>

#include "sim/workload/rank_program.hpp"

namespace codesim::workload {

class RankTasks {
 public:
  // Where the tasks being created go: the chunk of the rank's schedule they belong to.
  struct Place {
    int chunk = -1;
    ChunkKind kind = ChunkKind::forward;
  };

  // A chain of dependent tasks: each waits for the previous one (or, first, for `start`).
  struct Chain {
    std::vector<int> start;
    int last = -1;
    std::vector<int> deps() const { return last >= 0 ? std::vector<int>{last} : start; }
  };

  RankTasks(const StepPlan& plan, int rank);

 protected:
  // A TP collective of the micro-batch's BF16 activations (or their gradients) over the rank's TP
  // group; the chain waits for it unless tp_overlap hides it under the GEMMs.
  void tp_collective(const Place& at, const StageWork& w, CommKind kind, Pass pass, Chain& c);

  // Context parallelism: the keys and values of the whole sequence (each GPU of the TP group its
  // heads' share, BF16) gathered before attention's forward, their gradients reduce-scattered
  // after its backward; the chain waits for them.
  void cp_collective(const Place& at, const StageWork& w, CommKind kind, Pass pass, Chain& c);

  // ZeRO-3: a layer's (or the head's, the embedding's) parameters (BF16) gathered over its
  // replicas before it runs (on the communication stream, as soon as it is free: prefetched as
  // far as that stream's order allows); the chain's next computation waits for them.
  void gather(const Place& at, const StageWork& w, const GpuParams& g, Pass pass, Chain& c);

  void gather_layer(const Place& at, const StageWork& w, int l, Pass pass, Chain& c);

  // A bucket of gradients (a layer's, the head's, the embedding's) reduce-scattered on the
  // data-parallel stream once the computation so far has produced them: in the stage's last
  // chunk that computes them (ZeRO-0, 1), in every one (ZeRO-2, 3). Without overlap the step's
  // end reduces them all (step_end.cpp).
  void scatter(const Place& at, const StageWork& w, const GpuParams& g);

  void scatter_layer(const Place& at, const StageWork& w, int l);

  // The embedding's gradients, once the stage's backward has reached it.
  void scatter_embedding(const Place& at, const StageWork& w);

  int add(const Place& at, StepStream stream, core::Seconds duration, PieceId piece,
          const std::vector<int>& deps, std::optional<CommRef> comm);

  int compute_task(const Place& at, PieceId piece, core::Seconds d, const std::vector<int>& deps);

  int comm_task(const Place& at, PieceId piece, const std::vector<int>& deps, CommRef ref,
                core::Seconds own = {});

  const StageLayers& layers_of(const StageWork& w) const;

  // Activations (forward) or their gradients (backward) to the neighbouring stage: what one GPU
  // holds, its CP shard's tokens, split over TP under sequence parallelism (as Megatron's
  // pipeline sends are shaped); each GPU of the TP x CP group sends its own over its own links.
  int send(const Place& at, const StageWork& w, Chain& c, bool forward);

  const StepPlan& p_;
  const StepSpec& s_;
  const StepShape& sh_;
  const double kv_width_;  // channels of one token's keys and values over all heads
  RankProgram out_;
  std::set<int> final_chunks_;  // chunks after which a stage's gradients are final
};

}  // namespace codesim::workload
