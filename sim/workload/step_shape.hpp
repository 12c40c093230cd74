// The shape of a training step: its parallelism, its batch, and every per-GPU quantity derived
// from them, each named and derived once here. sim/study fills it from the scenario; the step's
// stages, the replay and the run's metrics read it.
//
//   GPUs          = pp x dp x tp x cp           (ep divides dp x tp x cp: EP groups span replicas)
//   a micro-batch = sequences_per_micro_batch x seq_len tokens, one data-parallel replica's
//   per CP shard  = that / cp                   what one GPU computes attention and FFNs for
//   per GPU       = that / tp with sequence parallelism (else / 1): what a GPU holds between TP
//                   regions, dispatches to the experts and sends down the pipeline
#pragma once

#include <algorithm>

#include "sim/workload/training_state.hpp"

namespace codesim::workload {

struct StepShape {
  // Parallelism: pipeline ranks, data-parallel replicas, tensor, context and expert groups.
  int pp = 1;
  int virtual_stages = 1;  // interleaved-1f1b: stages per pipeline rank
  int dp = 1;              // the scenario's parallelism.dp
  int tp = 1;              // GPUs of one node
  int cp = 1;
  int ep = 1;                     // 1 for a dense model
  bool sequence_parallel = true;  // tp > 1: norms and the experts' tokens split over TP too
  bool tp_overlap = false;        // TP collectives hidden under the GEMMs
  // ZeRO stage over the gradient replicas: 0 nothing sharded (gradients all-reduced), 1
  // optimizer state sharded, 2 gradients too, 3 parameters too.
  int zero = 1;
  // The gradients' reduction overlaps the backward (bucket by bucket in the last chunk); false:
  // it starts when the rank's backward has ended (Megatron-LM's 2021 DDP).
  bool dp_overlap = true;
  Recompute recompute = Recompute::none;
  TrainingPrecision precision;
  AttentionKernel attention = AttentionKernel::flash;
  bool dropout = false;  // attention-probability and hidden dropout (Megatron-LM's 0.1)

  // Batch.
  int seq_len = 4096;
  int sequences_per_micro_batch = 1;  // per data-parallel replica
  int micro_batches = 1;              // per pipeline and step

  int gpus() const { return pp * dp * tp * cp; }
  // The GPUs of one pipeline rank: its data-parallel replicas of a TP x CP group.
  int gpus_per_rank() const { return dp * tp * cp; }
  int tokens_per_micro_batch() const { return seq_len * sequences_per_micro_batch; }
  int tokens_per_cp_shard() const { return tokens_per_micro_batch() / cp; }
  int tokens_per_gpu() const { return tokens_per_cp_shard() / (sequence_parallel ? tp : 1); }
  // GPUs holding the same dense parameters (gradients reduce over data and context parallelism,
  // as Megatron does), and those holding the same routed experts.
  int gradient_replicas() const { return dp * cp; }
  int expert_replicas() const { return std::max(1, gradient_replicas() / ep); }
  // GPUs the optimizer state of dense and of expert parameters is sharded over (ZeRO 1 and up).
  int optimizer_shards() const { return zero >= 1 ? gradient_replicas() : 1; }
  int expert_optimizer_shards() const { return zero >= 1 ? expert_replicas() : 1; }
  double sequences_per_step() const {
    return static_cast<double>(dp) * sequences_per_micro_batch * micro_batches;
  }
};

}  // namespace codesim::workload
