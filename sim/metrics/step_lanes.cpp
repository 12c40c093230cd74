// Chunk spans, communication spans and exposed communication per pipeline rank.
#include "sim/metrics/step_lanes.hpp"

#include <algorithm>
#include <map>

namespace codesim::metrics {
namespace {

using workload::ChunkKind;

metrics::ChunkSpan span_kind(ChunkKind k) {
  switch (k) {
    case ChunkKind::forward:
      return metrics::ChunkSpan::forward;
    case ChunkKind::backward:
    case ChunkKind::backward_input:
      return metrics::ChunkSpan::backward;
    case ChunkKind::weight:
      return metrics::ChunkSpan::weight;
    case ChunkKind::forward_backward:
      return metrics::ChunkSpan::forward_backward;
  }
  return metrics::ChunkSpan::forward;
}

}  // namespace

metrics::CommGroup comm_group_of(workload::CommKind k) {
  switch (k) {
    case workload::CommKind::ep_dispatch:
    case workload::CommKind::ep_combine:
      return metrics::CommGroup::ep;
    case workload::CommKind::pp_send:
      return metrics::CommGroup::pp;
    case workload::CommKind::dp_reduce_scatter:
    case workload::CommKind::dp_all_gather:
      return metrics::CommGroup::dp;
    case workload::CommKind::tp_all_gather:
    case workload::CommKind::tp_reduce_scatter:
    case workload::CommKind::tp_all_reduce:
      return metrics::CommGroup::tp;
    case workload::CommKind::cp_all_gather:
    case workload::CommKind::cp_reduce_scatter:
      return metrics::CommGroup::cp;
  }
  return metrics::CommGroup::dp;
}

std::vector<RankActivity> rank_activity(const workload::StepProgram& p, const ReplayedStep& t) {
  std::vector<RankActivity> out(static_cast<std::size_t>(p.schedule.ranks));
  std::vector<std::map<int, ChunkInterval>> chunks(out.size());
  for (const auto& task : p.tasks) {
    auto& rank = out[static_cast<std::size_t>(task.rank)];
    const auto& tt = t.tasks[static_cast<std::size_t>(task.id)];
    const Interval span{tt.start.value, tt.end.value};
    if (task.stream == workload::StepStream::compute) {
      rank.compute.push_back(span);
    } else if (task.comm) {
      rank.comm.emplace_back(comm_group_of(task.comm->kind), span);
    }
    if (task.chunk < 0) {
      rank.tail.push_back(span);
      continue;
    }
    // A chunk's extent on the compute lane: its sends and all-to-alls run beside it (a stage
    // with the embedding alone computes nothing, and its chunks take no time of the lane).
    if (task.stream != workload::StepStream::compute) {
      continue;
    }
    auto [it, fresh] = chunks[static_cast<std::size_t>(task.rank)].emplace(
        task.chunk, ChunkInterval{span, task.chunk_kind});
    if (!fresh) {
      it->second.span.a = std::min(it->second.span.a, span.a);
      it->second.span.b = std::max(it->second.span.b, span.b);
    }
    rank.last_chunk_end = std::max(rank.last_chunk_end, span.b);
  }
  // A chunk ends where the next one begins: time it waits on is the next chunk's.
  for (std::size_t r = 0; r < out.size(); ++r) {
    for (auto it = chunks[r].begin(); it != chunks[r].end(); ++it) {
      const auto next = std::next(it);
      ChunkInterval c = it->second;
      if (next != chunks[r].end()) {
        c.span.b = std::min(c.span.b, next->second.span.a);
      }
      c.span.b = std::max(c.span.a, c.span.b);
      out[r].chunks.push_back(c);
    }
  }
  return out;
}

// The first rank's step by chunk kind (its compute lane); the bubble is what the chunks and the
// tail leave idle.
metrics::Breakdown breakdown(const metrics::RankLanes& first, core::Seconds step) {
  metrics::Breakdown out;
  for (const auto& c : first.compute) {
    const core::Seconds span = c.end - c.start;
    switch (c.kind) {
      case metrics::ChunkSpan::forward:
        out.forward += span;
        break;
      case metrics::ChunkSpan::backward:
        out.backward += span;
        break;
      case metrics::ChunkSpan::weight:
        out.weight += span;
        break;
      case metrics::ChunkSpan::forward_backward:
        out.forward_backward += span;
        break;
      case metrics::ChunkSpan::optimizer:
        out.optimizer += span;
        break;
    }
  }
  out.bubble = step - out.total();  // bubble is still zero in the sum
  return out;
}

std::vector<metrics::RankLanes> pipeline_lanes(const std::vector<RankActivity>& ranks) {
  std::vector<metrics::RankLanes> out;
  for (const auto& rank : ranks) {
    metrics::RankLanes lanes;
    for (const auto& c : rank.chunks) {
      lanes.compute.push_back(
          {core::Seconds(c.span.a), core::Seconds(c.span.b), span_kind(c.kind)});
    }
    for (const auto& i : merged(rank.tail)) {
      const double start = std::max(i.a, rank.last_chunk_end);
      if (i.b > start) {
        lanes.compute.push_back(
            {core::Seconds(start), core::Seconds(i.b), metrics::ChunkSpan::optimizer});
      }
    }
    const auto covered = merged(rank.compute);
    for (const metrics::CommGroup g : metrics::kCommGroups) {
      std::vector<Interval> spans;
      for (const auto& [group, span] : rank.comm) {
        if (group == g) {
          spans.push_back(span);
        }
      }
      for (const auto& i : merged(spans)) {
        lanes.comm.push_back({core::Seconds(i.a), core::Seconds(i.b), g});
        for (const auto& e : uncovered_parts(i, covered)) {
          lanes.exposed.push_back({core::Seconds(e.a), core::Seconds(e.b), g});
        }
      }
    }
    out.push_back(std::move(lanes));
  }
  return out;
}

}  // namespace codesim::metrics
