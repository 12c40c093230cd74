// A pipeline schedule's chunks on the list scheduler: each rank a queue, each chunk waiting for
// the chunks of other stages that produce its input.
#include "sim/workload/schedule_timing.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/core/list_schedule.hpp"

namespace codesim::workload {
namespace {

// The tasks that end each forward and each backward input part, per (direction, stage,
// micro-batch); -1 where none does.
class Producers {
 public:
  explicit Producers(const PipelineSchedule& s)
      : stages_(s.stages),
        per_direction_(s.micro_batches / s.directions),
        forward_(static_cast<std::size_t>(s.directions * s.stages * per_direction_), -1),
        backward_(forward_.size(), -1) {}

  void add(const Chunk& c, int task) {
    if (c.kind == ChunkKind::forward || c.kind == ChunkKind::forward_backward) {
      forward_[index(c.work)] = task;
    }
    if (c.kind == ChunkKind::backward || c.kind == ChunkKind::backward_input) {
      backward_[index(c.work)] = task;
    }
    if (c.kind == ChunkKind::forward_backward) {
      backward_[index(c.backward)] = task;
    }
  }

  // What a chunk waits for on other ranks (or earlier on its own): the previous stage's forward
  // before a forward; the next stage's backward (the last stage: its own forward) before a
  // backward. A weight part follows its input part on the same rank.
  std::vector<int> deps(const Chunk& c) const {
    std::vector<int> out;
    const auto forward = [&](const StageWork& w) {
      if (w.stage > 0) {
        out.push_back(forward_[index({w.direction, w.stage - 1, w.micro_batch})]);
      }
    };
    const auto backward = [&](const StageWork& w) {
      out.push_back(w.stage == stages_ - 1
                        ? forward_[index(w)]
                        : backward_[index({w.direction, w.stage + 1, w.micro_batch})]);
    };
    switch (c.kind) {
      case ChunkKind::forward:
        forward(c.work);
        break;
      case ChunkKind::backward:
      case ChunkKind::backward_input:
        backward(c.work);
        break;
      case ChunkKind::weight:
        break;
      case ChunkKind::forward_backward:
        forward(c.work);
        backward(c.backward);
        break;
    }
    return out;
  }

 private:
  std::size_t index(const StageWork& w) const {
    return static_cast<std::size_t>((w.direction * stages_ + w.stage) * per_direction_ +
                                    w.micro_batch);
  }
  int stages_;
  int per_direction_;
  std::vector<int> forward_;
  std::vector<int> backward_;
};

double duration(const Chunk& c, const ChunkTimes& t) {
  switch (c.kind) {
    case ChunkKind::forward:
      return t.forward.value;
    case ChunkKind::backward:
      return t.backward.value;
    case ChunkKind::backward_input:
      return (t.backward - t.weight).value;
    case ChunkKind::weight:
      return t.weight.value;
    case ChunkKind::forward_backward:
      return t.forward_backward.value;
  }
  return 0;
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
  // The chunks as the list scheduler's tasks, rank by rank; each rank a queue.
  std::vector<const Chunk*> chunks;
  core::TaskGraph g;
  Producers producers(s);
  for (const auto& rank : s.per_rank) {
    g.queues.emplace_back();
    for (const Chunk& c : rank) {
      producers.add(c, static_cast<int>(chunks.size()));
      g.queues.back().push_back(static_cast<int>(chunks.size()));
      chunks.push_back(&c);
    }
  }
  for (const Chunk* c : chunks) {
    g.deps.push_back(producers.deps(*c));
    if (std::ranges::find(g.deps.back(), -1) != g.deps.back().end()) {
      throw std::logic_error("the schedule runs a chunk whose input no rank produces");
    }
  }
  std::vector<core::TaskSpan> spans;
  try {
    spans = core::list_schedule(g, [&](int task, double ready) {
      return core::TaskSpan{ready, ready + duration(*chunks[static_cast<std::size_t>(task)], t)};
    });
  } catch (const std::invalid_argument&) {
    throw std::logic_error("the schedule deadlocks: its ranks wait for each other");
  }
  ScheduleTiming out;
  out.per_rank.resize(g.queues.size());
  std::vector<double> free(g.queues.size(), 0.0);
  for (std::size_t r = 0; r < g.queues.size(); ++r) {
    for (const int task : g.queues[r]) {
      const core::TaskSpan& span = spans[static_cast<std::size_t>(task)];
      out.per_rank[r].push_back({*chunks[static_cast<std::size_t>(task)], core::Seconds(span.start),
                                 core::Seconds(span.end)});
      free[r] = span.end;
    }
  }
  out.makespan = core::Seconds(free.empty() ? 0.0 : *std::max_element(free.begin(), free.end()));
  const auto ranks = g.queues.size();
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
