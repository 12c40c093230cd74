// A pipeline schedule timed with given chunk durations and no communication: every rank runs its
// chunks in order, each as soon as the rank is free and its inputs exist (the previous stage's
// forward, the next stage's backward, or the loss at the last stage). Gives each chunk's start
// and end, each rank's idle time, the bubble (the largest idle time of any rank between the
// step's start and its end) and the micro-batches in flight.
#pragma once

#include <vector>

#include "sim/core/units.hpp"
#include "sim/workload/schedule.hpp"

namespace codesim::workload {

struct ChunkTimes {
  core::Seconds forward;
  core::Seconds backward;  // whole: input part = backward - weight
  core::Seconds weight;
  core::Seconds forward_backward;  // an overlapped pair
};

struct TimedChunk {
  Chunk chunk;
  core::Seconds start;
  core::Seconds end;
};

struct ScheduleTiming {
  std::vector<std::vector<TimedChunk>> per_rank;
  core::Seconds makespan;
  std::vector<core::Seconds> busy;  // per rank
  std::vector<core::Seconds> idle;  // per rank: makespan - busy
  core::Seconds bubble;             // max idle
  std::vector<int> peak_in_flight;  // per rank, as peak_in_flight(schedule)
};

// Throws ScheduleError for a negative duration or a weight part longer than the backward.
ScheduleTiming time_schedule(const PipelineSchedule& s, const ChunkTimes& t);

// The published bubble of docs/model/deepseek-v3.md §7 for this method, in these times: 1F1B (PP -
// 1)(F + B) (and interleaved 1F1B, whose chunks are one virtual stage: Megatron's (PP - 1)(F + B) /
// V in times of a rank's whole model part), ZB1P (PP - 1)(F + B - 2W), DualPipe (PP/2 - 1)(F&B + B
// - 3W) with PP = ranks, DualPipeV the same with PP = 2 x ranks stages. Exact when F = W = B/2 and
// F&B >= B.
core::Seconds published_bubble(ScheduleMethod m, int ranks, const ChunkTimes& t);

}  // namespace codesim::workload
