// Folded program + timeline -> every replica's program (what each task waits for and whose
// pace it follows).
#include "sim/variability/replica_program.hpp"

#include <algorithm>
#include <numeric>

#include "sim/comm/stream_check.hpp"

namespace codesim::variability {
namespace {

using workload::CommKind;

Group group_of(const workload::CommRef& c) {
  switch (c.kind) {
    case CommKind::ep_dispatch:
    case CommKind::ep_combine:
      return Group::ep;
    case CommKind::tp_all_gather:
    case CommKind::tp_reduce_scatter:
    case CommKind::tp_all_reduce:
      return Group::tp;
    case CommKind::cp_all_gather:
    case CommKind::cp_reduce_scatter:
      return Group::cp;
    case CommKind::dp_reduce_scatter:
    case CommKind::dp_all_gather:
      return c.experts ? Group::dp_experts : Group::dp_dense;
    case CommKind::pp_send:
      break;
  }
  return Group::own;
}

// Group key of GPU j of a rank for each kind (the layouts of comm/step_streams.hpp): TP blocks of
// tp consecutive GPUs; CP groups every tp-th GPU of a tp x cp block; EP blocks of ep; dense
// replicas every tp-th GPU of the rank, expert replicas every ep-th.
int key_of(Group g, int j, const workload::StepShape& s) {
  switch (g) {
    case Group::own:
      return j;
    case Group::tp:
      return j / s.tp;
    case Group::cp:
      return (j / (s.tp * s.cp)) * s.tp + j % s.tp;
    case Group::ep:
      return j / s.ep;
    case Group::dp_dense:
      return j % s.tp;
    case Group::dp_experts:
      return j % s.ep;
  }
  return j;
}

// Whether a group's GPUs sit in more than one node (its transfers then cross NICs): the group's
// span of GPU indices against the node size.
bool spans_nodes(Group g, const workload::StepShape& s, int gpus_per_node) {
  const int g_rank = s.gpus_per_rank();
  switch (g) {
    case Group::own:
      return false;
    case Group::tp:
      return s.tp > gpus_per_node;
    case Group::cp:
      return s.tp * s.cp > gpus_per_node;
    case Group::ep:
      return s.ep > gpus_per_node;
    case Group::dp_dense:
      return g_rank > s.tp && g_rank > gpus_per_node;
    case Group::dp_experts:
      return g_rank > s.ep && g_rank > gpus_per_node;
  }
  return false;
}

}  // namespace

ReplicaProgram replica_program(const workload::StepProgram& program,
                               const comm::StepTimeline& timeline, const workload::StepShape& shape,
                               int gpus_per_node) {
  ReplicaProgram out;
  out.shape = shape;
  const int g_rank = shape.gpus_per_rank();
  const std::size_t n = program.tasks.size();

  comm::StreamProgram sp;  // stream order and dependencies only, for the task order
  sp.streams.resize(static_cast<std::size_t>(program.schedule.ranks) * workload::kStepStreams);
  std::vector<int> previous(n, -1);
  std::vector<int> last(sp.streams.size(), -1);
  for (const auto& task : program.tasks) {
    const auto stream = static_cast<std::size_t>(task.rank * workload::kStepStreams +
                                                 static_cast<int>(task.stream));
    previous[static_cast<std::size_t>(task.id)] = last[stream];
    last[stream] = task.id;
    sp.streams[stream].push_back(task.id);
    sp.tasks.push_back({.deps = task.deps});

    const comm::TaskTiming& timing = timeline.tasks[static_cast<std::size_t>(task.id)];
    ReplicaTask rt{.rank = task.rank,
                   .compute = task.stream == workload::StepStream::compute && !task.comm,
                   .own = task.duration.value};
    const double took = (timing.end - timing.start).value;
    if (task.comm) {
      rt.group = group_of(*task.comm);
      rt.network = std::max(0.0, took - task.duration.value);
      rt.own = took - rt.network;
      if (task.comm->kind == CommKind::pp_send) {
        rt.peer_rank = task.comm->to_rank;
        rt.crosses_nodes =
            (task.rank * g_rank) / gpus_per_node != (task.comm->to_rank * g_rank) / gpus_per_node;
      } else {
        rt.crosses_nodes = spans_nodes(rt.group, shape, gpus_per_node);
      }
    } else {
      rt.own = took;
    }
    out.tasks.push_back(rt);
  }
  comm::check_stream_program(sp);
  out.order = comm::stream_program_order(sp);

  out.pred_begin.reserve(n + 1);
  for (const auto& task : program.tasks) {
    out.pred_begin.push_back(static_cast<int>(out.preds.size()));
    if (previous[static_cast<std::size_t>(task.id)] >= 0) {
      out.preds.push_back(previous[static_cast<std::size_t>(task.id)]);
    }
    out.preds.insert(out.preds.end(), task.deps.begin(), task.deps.end());
  }
  out.pred_begin.push_back(static_cast<int>(out.preds.size()));

  for (int g = 0; g < kGroups; ++g) {
    std::vector<int> keys(static_cast<std::size_t>(g_rank));
    for (int j = 0; j < g_rank; ++j) {
      keys[static_cast<std::size_t>(j)] = key_of(static_cast<Group>(g), j, shape);
    }
    out.group_count.push_back(*std::max_element(keys.begin(), keys.end()) + 1);
    out.group_key.push_back(std::move(keys));
  }
  out.unit_gpus = std::lcm(std::max(1, shape.ep), shape.tp * shape.cp);
  return out;
}

}  // namespace codesim::variability
