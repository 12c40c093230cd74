// How a step's GPUs split the model and the batch, as a scenario's parallelism: section gives
// it. parameters.hpp declares each key with its doc and default (the struct's own; dp derived
// from the GPUs).
#pragma once

namespace codesim::workload {

struct ParallelismSpec {
  int pp = 1;
  int ep = 1;
  int dp = 1;  // derived: GPUs / (pp x tp x cp)
  int tp = 1;
  int zero = 1;             // ZeRO stage, 0-3
  int cp = 1;               // context parallelism: each sequence over this many GPUs
  bool sp = true;           // sequence parallelism with tp > 1
  bool tp_overlap = false;  // TP collectives hidden under the GEMMs
  bool dp_overlap = true;   // the gradients' reduction under the backward
};

}  // namespace codesim::workload
