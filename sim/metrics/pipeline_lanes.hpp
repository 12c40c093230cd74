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

struct RankLanes {
  std::vector<ComputeSpan> compute;  // chunks in schedule order, then the optimizer
  std::vector<CommSpan> comm;        // merged per group where they touch
  std::vector<CommSpan> exposed;     // parts of `comm` with no compute under them
  RankPower power;
};

}  // namespace codesim::metrics
