// Chunk orders of 1F1B, ZB1P, DualPipe and DualPipeV.
#include "sim/workload/schedule.hpp"

#include <algorithm>
#include <deque>
#include <map>

#include "sim/core/named.hpp"

namespace codesim::workload {
namespace {

// Appends chunks for one rank, numbering micro-batches per (direction, stage) as they come and
// queueing deferred weight parts.
class RankBuilder {
 public:
  RankBuilder(std::vector<Chunk>& out, std::vector<StageWork> phases)
      : out_(out), phases_(std::move(phases)) {}

  void forward(int phase) { out_.push_back({ChunkKind::forward, next_forward(phase), {}}); }
  // defer_weight: input part now, weight part later (zero bubble).
  void backward(int phase, bool defer_weight) {
    const StageWork w = next_backward(phase);
    if (defer_weight) {
      out_.push_back({ChunkKind::backward_input, w, {}});
      deferred_.push_back(w);
    } else {
      out_.push_back({ChunkKind::backward, w, {}});
    }
  }
  void weight() {
    out_.push_back({ChunkKind::weight, deferred_.front(), {}});
    deferred_.pop_front();
  }
  void forward_backward(int forward_phase, int backward_phase) {
    const StageWork f = next_forward(forward_phase);
    out_.push_back({ChunkKind::forward_backward, f, next_backward(backward_phase)});
  }
  std::size_t deferred() const { return deferred_.size(); }

 private:
  StageWork next_forward(int phase) {
    StageWork w = phases_[static_cast<std::size_t>(phase)];
    w.micro_batch = forwards_[phase]++;
    return w;
  }
  StageWork next_backward(int phase) {
    StageWork w = phases_[static_cast<std::size_t>(phase)];
    w.micro_batch = backwards_[phase]++;
    return w;
  }

  std::vector<Chunk>& out_;
  std::vector<StageWork> phases_;  // per phase: its direction and stage
  std::map<int, int> forwards_;
  std::map<int, int> backwards_;
  std::deque<StageWork> deferred_;
};

void one_f_one_b(RankBuilder& b, int ranks, int rank, int c, bool zero_bubble) {
  const int warmup = std::min(ranks - rank - 1, c);
  for (int i = 0; i < warmup; ++i) {
    b.forward(0);
  }
  for (int i = 0; i < c - warmup; ++i) {
    b.forward(0);
    b.backward(0, zero_bubble);
    if (zero_bubble && static_cast<int>(b.deferred()) > rank) {
      b.weight();
    }
  }
  for (int i = 0; i < warmup; ++i) {
    b.backward(0, zero_bubble);
    if (zero_bubble) {
      b.weight();
    }
  }
  while (zero_bubble && b.deferred() > 0) {
    b.weight();
  }
}

// Megatron's interleaved 1F1B on rank r of R with V stages (phases 0..V-1: stage v R + r).
void interleaved(RankBuilder& b, int ranks, int rank, int c, int v) {
  const int total = c * v;
  const int warmup = std::min(2 * (ranks - rank - 1) + (v - 1) * ranks, total);
  auto forward_phase = [&](int k) { return (k / ranks) % v; };
  auto backward_phase = [&](int k) { return v - 1 - (k / ranks) % v; };
  for (int k = 0; k < warmup; ++k) {
    b.forward(forward_phase(k));
  }
  for (int k = 0; k < total - warmup; ++k) {
    b.forward(forward_phase(warmup + k));
    b.backward(backward_phase(k), false);
  }
  for (int k = total - warmup; k < total; ++k) {
    b.backward(backward_phase(k), false);
  }
}

// The eight phases of docs/model/deepseek-v3.md §7. For DualPipe: h = min(r, R - 1 - r), half = R/2
// ranks, per = C/2 micro-batches per direction, `unpaired` for the two middle ranks; for DualPipeV:
// h = r, half = R, per = C, `unpaired` for the last rank.
void dual_phases(RankBuilder& b, int h, int half, int per, int ranks_in_main, bool unpaired) {
  for (int i = 0; i < 2 * (half - h - 1); ++i) {
    b.forward(0);
  }
  for (int i = 0; i < h + 1; ++i) {
    b.forward(0);
    b.forward(1);
  }
  for (int i = 0; i < half - h - 1; ++i) {
    b.backward(1, true);
    b.weight();
    b.forward(1);
  }
  const int main_steps = per - ranks_in_main + h + 1;
  for (int i = 0; i < main_steps; ++i) {
    if (i == 0 && unpaired) {
      b.forward(0);  // not overlapped: a smaller bubble on these ranks
      b.backward(1, false);
    } else {
      b.forward_backward(0, 1);
    }
    b.forward_backward(1, 0);
  }
  for (int i = 0; i < half - h - 1; ++i) {
    b.backward(1, false);
    b.forward_backward(1, 0);
  }
  const int step6 = h + 1;
  bool zero_bubble = false;
  for (int i = 0; i < step6; ++i) {
    if (i == step6 / 2 && h % 2 == 1) {
      zero_bubble = true;
    }
    b.backward(1, zero_bubble);
    if (i == step6 / 2 && h % 2 == 0) {
      zero_bubble = true;
    }
    b.backward(0, zero_bubble);
  }
  for (int i = 0; i < half - h - 1; ++i) {
    b.weight();
    b.backward(0, true);
  }
  for (int i = 0; i < h + 1; ++i) {
    b.weight();
  }
}

void check(bool ok, const std::string& message) {
  if (!ok) {
    throw ScheduleError(message);
  }
}

}  // namespace

std::string_view schedule_method_name(ScheduleMethod m) {
  return core::name_in(kScheduleMethodNames, m);
}

int PipelineSchedule::rank_of(int direction, int stage) const {
  switch (method) {
    case ScheduleMethod::dualpipe:
      return direction == 0 ? stage : ranks - 1 - stage;
    case ScheduleMethod::dualpipev:
      return stage < ranks ? stage : 2 * ranks - 1 - stage;
    case ScheduleMethod::interleaved_1f1b:
      return stage % ranks;
    default:
      return stage;
  }
}

std::vector<int> PipelineSchedule::stages_of(int rank) const {
  std::vector<int> out;
  for (int st = 0; st < stages; ++st) {
    for (int d = 0; d < directions; ++d) {
      if (rank_of(d, st) == rank) {
        out.push_back(st);
        break;
      }
    }
  }
  return out;
}

std::vector<int> peak_in_flight(const PipelineSchedule& s) {
  std::vector<int> out;
  for (const auto& chunks : s.per_rank) {
    int held = 0;
    int peak = 0;
    for (const Chunk& c : chunks) {
      held += c.kind == ChunkKind::forward || c.kind == ChunkKind::forward_backward ? 1 : 0;
      peak = std::max(peak, held);
      held -= c.kind == ChunkKind::backward || c.kind == ChunkKind::weight ||
                      c.kind == ChunkKind::forward_backward
                  ? 1
                  : 0;
    }
    out.push_back(peak);
  }
  return out;
}

PipelineSchedule make_schedule(ScheduleMethod method, int ranks, int micro_batches,
                               int virtual_stages) {
  const std::string name(schedule_method_name(method));
  const bool interleaving = method == ScheduleMethod::interleaved_1f1b;
  check(virtual_stages >= 1, "a schedule needs at least 1 virtual stage per rank, got " +
                                 std::to_string(virtual_stages));
  check(interleaving || virtual_stages == 1,
        name + " holds one stage per rank (two for the dual methods); virtual stages are "
               "interleaved-1f1b's, got " +
            std::to_string(virtual_stages));
  const bool dual = method == ScheduleMethod::dualpipe || method == ScheduleMethod::dualpipev;
  check(ranks >= (dual ? 2 : 1), name + " needs at least " + (dual ? "2" : "1") + " pipeline rank" +
                                     (dual ? "s" : "") + ", got " + std::to_string(ranks));
  check(micro_batches >= 1,
        "a schedule needs at least 1 micro-batch, got " + std::to_string(micro_batches));
  if (method == ScheduleMethod::dualpipe) {
    check(ranks % 2 == 0,
          "dualpipe needs an even number of pipeline ranks, got " + std::to_string(ranks));
    check(micro_batches % 2 == 0,
          "dualpipe needs an even number of micro-batches (half enter "
          "at each end), got " +
              std::to_string(micro_batches));
  }
  if (dual) {
    check(micro_batches >= 2 * ranks, name +
                                          " needs at least 2 x pp = " + std::to_string(2 * ranks) +
                                          " micro-batches, got " + std::to_string(micro_batches));
  }
  if (interleaving) {
    check(micro_batches % ranks == 0,
          "interleaved-1f1b needs micro-batches in multiples of the " + std::to_string(ranks) +
              " pipeline ranks, got " + std::to_string(micro_batches));
  }
  PipelineSchedule s;
  s.method = method;
  s.ranks = ranks;
  s.stages = method == ScheduleMethod::dualpipev ? 2 * ranks : ranks * virtual_stages;
  s.directions = method == ScheduleMethod::dualpipe ? 2 : 1;
  s.micro_batches = micro_batches;
  s.per_rank.resize(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    auto& out = s.per_rank[static_cast<std::size_t>(r)];
    switch (method) {
      case ScheduleMethod::one_f_one_b:
      case ScheduleMethod::zb1p: {
        RankBuilder b(out, {StageWork{0, r, 0}});
        one_f_one_b(b, ranks, r, micro_batches, method == ScheduleMethod::zb1p);
        break;
      }
      case ScheduleMethod::dualpipe: {
        // Phase 0 is the direction in which this rank is the nearer to the entry.
        const bool first_half = r < ranks / 2;
        const StageWork down{0, r, 0};
        const StageWork up{1, ranks - 1 - r, 0};
        RankBuilder b(
            out, first_half ? std::vector<StageWork>{down, up} : std::vector<StageWork>{up, down});
        const int h = std::min(r, ranks - 1 - r);
        const bool middle = r == ranks / 2 - 1 || r == ranks / 2;
        dual_phases(b, h, ranks / 2, micro_batches / 2, ranks, middle);
        break;
      }
      case ScheduleMethod::dualpipev: {
        RankBuilder b(out, {StageWork{0, r, 0}, StageWork{0, 2 * ranks - 1 - r, 0}});
        dual_phases(b, r, ranks, micro_batches, 2 * ranks, r == ranks - 1);
        break;
      }
      case ScheduleMethod::interleaved_1f1b: {
        std::vector<StageWork> phases;
        for (int v = 0; v < virtual_stages; ++v) {
          phases.push_back(StageWork{0, v * ranks + r, 0});
        }
        RankBuilder b(out, std::move(phases));
        interleaved(b, ranks, r, micro_batches, virtual_stages);
        break;
      }
    }
  }
  return s;
}

}  // namespace codesim::workload
