// A replayed step as lanes of spans per pipeline rank, as the DualPipe figure draws it: the
// compute lane shows the schedule's chunks, the communication lane what the network carried, and
// the exposed spans the communication that compute did not cover.
#pragma once

#include <vector>

#include "sim/core/units.hpp"
#include "sim/metrics/comm_group.hpp"

namespace codesim::metrics {

enum class ChunkSpan { forward, backward, weight, forward_backward, optimizer };

struct ComputeSpan {
  core::Seconds start;
  core::Seconds end;
  ChunkSpan kind = ChunkSpan::forward;
};

struct CommSpan {
  core::Seconds start;
  core::Seconds end;
  CommGroup group = CommGroup::ep;
};

// The rank's SM clock and board power over the step as the power governor set them (all 0
// without a power model): the board draws computing_w while its compute lane runs, waiting_w
// between.
struct RankPower {
  double clock_mhz = 0;
  double computing_w = 0;
  double waiting_w = 0;
};

// The rank's memory over the step: what it holds throughout (parameters, optimizer state, the
// gradients where they persist, the framework) and its activations at each of its chunks, as its
// schedule allocates them when a chunk starts and frees them when it ends.
struct RankMemory {
  double state_bytes = 0;
  std::vector<double> activations_at_start;  // one per chunk span (the optimizer's: none)
  std::vector<double> activations_at_end;
};

struct RankLanes {
  std::vector<ComputeSpan> compute;  // chunks in schedule order, then the optimizer
  std::vector<CommSpan> comm;        // merged per group where they touch
  std::vector<CommSpan> exposed;     // parts of `comm` with no compute under them
  RankPower power;
  RankMemory memory;
};

// One chunk's span with the bytes the rank holds at its start (its activations allocated) and at
// its end (its frees done).
struct MemoryStep {
  core::Seconds start;
  core::Seconds end;
  double bytes_at_start = 0;
  double bytes_at_end = 0;
};

// The rank's chunks with their memory, in schedule order (the optimizer's span has none).
std::vector<MemoryStep> memory_steps(const RankLanes& lanes);

}  // namespace codesim::metrics
