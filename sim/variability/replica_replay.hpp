// One step of every replica (or of a chosen few units of replicas), each GPU at its drawn pace:
//
//   a task starts when its stream predecessor and its dependencies have ended on its GPU (a
//   pipeline receive: on GPU j of the sending rank); a communication task starts when every
//   member of its group is ready (the slowest) and ends after its own work plus its transfer's
//   time x the slowest NIC multiplier of the group (when the group spans nodes); a compute task
//   takes its modelled time x its GPU's fail-slow factor x its GPU's mean pace over the span it
//   would take at its modelled time.
//
// The step ends when the last task of any GPU ends. With every multiplier 1 each GPU replays the
// folded timeline, and the step is the folded step (to rounding).
//
// Units: the GPUs of a rank that TP, CP and EP bind (ReplicaProgram::unit_gpus consecutive
// GPUs), the same indices on every rank; only data-parallel collectives join units. Replaying a
// subset of units, a data-parallel collective waits for the slowest of the replayed members;
// choose_units picks the units with the largest draws so that the slowest are among them.
#pragma once

#include <vector>

#include "sim/metrics/replayed_step.hpp"
#include "sim/variability/replica_program.hpp"
#include "sim/variability/speed_draw.hpp"

namespace codesim::variability {

// How many units each rank has: G / unit_gpus.
int unit_count(const ReplicaProgram& p);

// All units when `wanted` is 0 or at least unit_count; else the `wanted` units whose summed
// per-rank slowest compute (fail-slow factor x mean pace over the step) and NIC multipliers are
// largest (ascending unit order).
std::vector<int> choose_units(const ReplicaProgram& p, const StepDraw& d, int wanted);

// Reusable storage of replay_step (task end times per replayed GPU).
struct ReplayScratch {
  std::vector<double> end;
  std::vector<double> group_ready;
  std::vector<double> group_nic;
};

// The step's time, seconds. With `first`, also when each task ran on the first replayed GPU of
// its rank (GPU 0 of each rank when unit 0 is replayed), per task of the program.
double replay_step(const ReplicaProgram& p, const StepDraw& d, const std::vector<int>& units,
                   ReplayScratch& scratch, std::vector<metrics::TaskSpan>* first = nullptr);

}  // namespace codesim::variability
