// The replayed step's per-rank tracks.
#include "sim/study/training_tracks.hpp"

#include "models/cost/clock_model.hpp"

namespace codesim::study {
namespace {

// A rank's memory as counter points: at each chunk's start its state and the activations it
// has allocated, at its end what its frees leave.
workload::MemoryTrack memory_track(int rank, const metrics::RankLanes& lanes) {
  workload::MemoryTrack track{.rank = rank};
  for (const metrics::MemoryStep& c : metrics::memory_steps(lanes)) {
    track.points.emplace_back(c.start.value * 1e6, c.bytes_at_start);
    track.points.emplace_back(c.end.value * 1e6, c.bytes_at_end);
  }
  return track;
}

}  // namespace

void power_lanes(metrics::RunResult& r, const workload::StepProgram& program,
                 const std::vector<double>& clocks, const hardware::PowerSpec& power) {
  for (std::size_t rank = 0; rank < r.lanes.size() && rank < clocks.size(); ++rank) {
    const cost::Work& w = program.rank_work[rank];
    const double busy = cost::time_at(w, clocks[rank], power).value;
    r.lanes[rank].power = {
        .clock_mhz = clocks[rank] * power.max_clock_mhz,
        .computing_w = busy > 0
                           ? power.awake_w + cost::dynamic_energy_j(w, clocks[rank], power) / busy
                           : power.awake_w,
        .waiting_w = power.awake_w};
  }
}

void keep_trace(TrainingRun& run, const workload::StepProgram& program,
                const comm::StepTimeline& timeline) {
  const metrics::RunResult& r = run.result;
  run.trace = workload::to_step_trace(program);
  for (const auto& t : timeline.tasks) {
    run.timeline.start_us.push_back(t.start.value * 1e6);
    run.timeline.duration_us.push_back((t.end - t.start).value * 1e6);
  }
  for (std::size_t rank = 0; r.energy && rank < r.lanes.size(); ++rank) {
    const metrics::RankPower& p = r.lanes[rank].power;
    run.power.push_back({.rank = static_cast<int>(rank),
                         .clock_mhz = p.clock_mhz,
                         .computing_w = p.computing_w,
                         .waiting_w = p.waiting_w});
  }
  for (std::size_t rank = 0; rank < r.lanes.size(); ++rank) {
    run.memory.push_back(memory_track(static_cast<int>(rank), r.lanes[rank]));
  }
}

}  // namespace codesim::study
