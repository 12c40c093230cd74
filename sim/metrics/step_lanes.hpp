// A replayed step per pipeline rank: the chunks of its compute stream as the schedule ran them,
// its communication, and the communication its compute did not cover. The breakdown of the first
// rank and the HTML timeline both read these.
#pragma once

#include <vector>

#include "sim/core/intervals.hpp"
#include "sim/metrics/breakdown.hpp"
#include "sim/metrics/pipeline_lanes.hpp"
#include "sim/metrics/replayed_step.hpp"
#include "sim/workload/step_program.hpp"

namespace codesim::metrics {

using core::Interval;  // seconds

struct ChunkInterval {
  Interval span;  // first task's start to the next chunk's start (or its own last end)
  workload::ChunkKind kind = workload::ChunkKind::forward;
};

struct RankActivity {
  std::vector<ChunkInterval> chunks;  // in schedule order
  double last_chunk_end = 0;
  std::vector<Interval> tail;     // tasks after the chunks: DP synchronization, optimizer
  std::vector<Interval> compute;  // every compute task
  std::vector<std::pair<metrics::CommGroup, Interval>> comm;  // every transfer
};

// The workload's kind of communication as the parallelism it serves.
metrics::CommGroup comm_group_of(workload::CommKind k);

// Per pipeline rank.
std::vector<RankActivity> rank_activity(const workload::StepProgram& p, const ReplayedStep& t);

std::vector<metrics::RankLanes> pipeline_lanes(const std::vector<RankActivity>& ranks);

// A rank's step by chunk kind (its compute lane); the bubble is what the chunks and the tail
// leave idle of `step`.
metrics::Breakdown breakdown(const metrics::RankLanes& first, core::Seconds step);

}  // namespace codesim::metrics
