// List scheduling of a pipeline schedule's chunks.
#include "sim/workload/schedule_timing.hpp"

#include <algorithm>
#include <stdexcept>

namespace codesim::workload {
namespace {

constexpr double kNotYet = -1.0;

// End times of forwards and of backward input parts, per (direction, stage, micro-batch).
class Done {
 public:
  explicit Done(const PipelineSchedule& s)
      : stages_(s.stages),
        per_direction_(s.micro_batches / s.directions),
        forward_(static_cast<std::size_t>(s.directions * s.stages * per_direction_), kNotYet),
        backward_(forward_.size(), kNotYet) {}

  double& forward(const StageWork& w) { return forward_[index(w)]; }
  double& backward(const StageWork& w) { return backward_[index(w)]; }

  // When a forward / a backward of `w` may start, or kNotYet.
  double forward_ready(const StageWork& w) const {
    return w.stage == 0 ? 0.0 : forward_[index({w.direction, w.stage - 1, w.micro_batch})];
  }
  double backward_ready(const StageWork& w) const {
    return w.stage == stages_ - 1 ? forward_[index(w)]
                                  : backward_[index({w.direction, w.stage + 1, w.micro_batch})];
  }

 private:
  std::size_t index(const StageWork& w) const {
    return static_cast<std::size_t>((w.direction * stages_ + w.stage) * per_direction_ +
                                    w.micro_batch);
  }
  int stages_;
  int per_direction_;
  std::vector<double> forward_;
  std::vector<double> backward_;
};

// When a chunk may start (kNotYet while it waits for another rank) and how long it runs.
std::pair<double, double> ready_and_duration(const Chunk& c, const ChunkTimes& t,
                                             const Done& done) {
  switch (c.kind) {
    case ChunkKind::forward:
      return {done.forward_ready(c.work), t.forward.value};
    case ChunkKind::backward:
      return {done.backward_ready(c.work), t.backward.value};
    case ChunkKind::backward_input:
      return {done.backward_ready(c.work), (t.backward - t.weight).value};
    case ChunkKind::weight:
      return {0, t.weight.value};  // its input part ran earlier on this rank
    case ChunkKind::forward_backward: {
      const double f = done.forward_ready(c.work);
      const double b = done.backward_ready(c.backward);
      return {f < 0 || b < 0 ? kNotYet : std::max(f, b), t.forward_backward.value};
    }
  }
  return {kNotYet, 0};
}

// What a chunk ending at `end` makes ready on other ranks.
void mark_done(const Chunk& c, double end, Done& done) {
  if (c.kind == ChunkKind::forward || c.kind == ChunkKind::forward_backward) {
    done.forward(c.work) = end;
  }
  if (c.kind == ChunkKind::backward || c.kind == ChunkKind::backward_input) {
    done.backward(c.work) = end;
  }
  if (c.kind == ChunkKind::forward_backward) {
    done.backward(c.backward) = end;
  }
}

}  // namespace

ScheduleTiming time_schedule(const PipelineSchedule& s, const ChunkTimes& t) {
  if (t.forward.value < 0 || t.backward.value < 0 || t.weight.value < 0 ||
      t.forward_backward.value < 0) {
    throw ScheduleError("chunk durations cannot be negative");
  }
  if (t.weight > t.backward) {
    throw ScheduleError("the weight part (W) cannot be longer than the whole backward (B)");
  }
  Done done(s);
  const auto ranks = static_cast<std::size_t>(s.ranks);
  ScheduleTiming out;
  out.per_rank.resize(ranks);
  std::vector<double> free(ranks, 0.0);
  std::vector<std::size_t> next(ranks, 0);
  bool progress = true;
  while (progress) {
    progress = false;
    for (std::size_t r = 0; r < ranks; ++r) {
      const auto& chunks = s.per_rank[r];
      while (next[r] < chunks.size()) {
        const Chunk& c = chunks[next[r]];
        const auto [ready, duration] = ready_and_duration(c, t, done);
        if (ready < 0) {
          break;  // waits for another rank
        }
        const double start = std::max(free[r], ready);
        const double end = start + duration;
        mark_done(c, end, done);
        out.per_rank[r].push_back({c, core::Seconds(start), core::Seconds(end)});
        free[r] = end;
        ++next[r];
        progress = true;
      }
    }
  }
  for (std::size_t r = 0; r < ranks; ++r) {
    if (next[r] != s.per_rank[r].size()) {
      throw std::logic_error("the schedule deadlocks at rank " + std::to_string(r));
    }
  }
  out.makespan = core::Seconds(*std::max_element(free.begin(), free.end()));
  for (std::size_t r = 0; r < ranks; ++r) {
    core::Seconds busy;
    for (const auto& tc : out.per_rank[r]) {
      busy += tc.end - tc.start;
    }
    out.busy.push_back(busy);
    out.idle.push_back(out.makespan - busy);
    out.bubble = std::max(out.bubble, out.makespan - busy);
  }
  out.peak_in_flight = peak_in_flight(s);
  return out;
}

core::Seconds published_bubble(ScheduleMethod m, int ranks, const ChunkTimes& t) {
  const double pp = ranks;
  const double f = t.forward.value;
  const double b = t.backward.value;
  const double w = t.weight.value;
  const double fb = t.forward_backward.value;
  switch (m) {
    case ScheduleMethod::one_f_one_b:
    case ScheduleMethod::interleaved_1f1b:  // per virtual stage: (PP - 1)(F + B) / V per rank
      return core::Seconds((pp - 1) * (f + b));
    case ScheduleMethod::zb1p:
      return core::Seconds((pp - 1) * (f + b - 2 * w));
    case ScheduleMethod::dualpipe:
      return core::Seconds((pp / 2 - 1) * (fb + b - 3 * w));
    case ScheduleMethod::dualpipev:
      return core::Seconds((2 * pp / 2 - 1) * (fb + b - 3 * w));
  }
  return {};
}

}  // namespace codesim::workload
