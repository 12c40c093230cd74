// A training step's stages run in order (step_program.hpp), and the program as a StepTrace.
#include "sim/workload/step_program.hpp"

#include <iterator>
#include <stdexcept>

#include "sim/workload/piece_costs.hpp"
#include "sim/workload/pipeline_link.hpp"
#include "sim/workload/rank_program.hpp"
#include "sim/workload/step_end.hpp"
#include "sim/workload/step_params.hpp"

namespace codesim::workload {

std::string_view comm_kind_name(CommKind k) {
  switch (k) {
    case CommKind::ep_dispatch:
      return "EP dispatch";
    case CommKind::ep_combine:
      return "EP combine";
    case CommKind::pp_send:
      return "PP send";
    case CommKind::dp_reduce_scatter:
      return "DP reduce-scatter";
    case CommKind::dp_all_gather:
      return "DP all-gather";
    case CommKind::tp_all_gather:
      return "TP all-gather";
    case CommKind::tp_reduce_scatter:
      return "TP reduce-scatter";
    case CommKind::tp_all_reduce:
      return "TP all-reduce";
    case CommKind::cp_all_gather:
      return "CP all-gather";
    case CommKind::cp_reduce_scatter:
      return "CP reduce-scatter";
  }
  return "?";
}

StepProgram build_step_program(const StepSpec& s) {
  const StepShape& sh = s.shape;
  if (s.model == nullptr || sh.tokens_per_micro_batch() < 1 || sh.pp < 1 || sh.ep < 1 ||
      sh.dp < 1 || sh.tp < 1 || sh.cp < 1) {
    throw std::invalid_argument(
        "a step needs a model, tokens, and pp, ep, dp, tp, cp of at least 1");
  }
  StepProgram p;
  p.schedule = make_schedule(s.method, sh.pp, sh.micro_batches, sh.virtual_stages);
  PieceCosts costs = price_pieces(s);
  std::vector<std::vector<int>> stages_of;
  for (int r = 0; r < sh.pp; ++r) {
    stages_of.push_back(p.schedule.stages_of(r));
  }
  // Layers are placed by their times at the top clock; the governor's clocks then price them.
  p.placement = place_layers(costs.stage_costs(), p.schedule.stages, stages_of);
  for (int r = 0; r < sh.pp; ++r) {
    p.rank_work.push_back(rank_work(costs, p.schedule, p.placement, r));
  }
  if (!s.stage_clock.empty()) {
    if (s.stage_clock.size() != p.placement.size()) {
      throw std::invalid_argument("a step's stage clocks must name every stage");
    }
    std::vector<double> layer_clock(static_cast<std::size_t>(s.model->layers), 1.0);
    double head_clock = 1;
    for (std::size_t st = 0; st < p.placement.size(); ++st) {
      for (int l = p.placement[st].first_layer; l <= p.placement[st].last_layer; ++l) {
        layer_clock[static_cast<std::size_t>(l)] = s.stage_clock[st];
      }
      if (p.placement[st].head) {
        head_clock = s.stage_clock[st];
      }
    }
    costs = price_pieces(s, layer_clock, head_clock);
  }
  const StepParams params = step_params(s, p.placement);
  for (const GpuParams& g : params.stages) {
    p.stage_dense_params.push_back(g.dense);
    p.stage_expert_params.push_back(g.experts);
  }
  const StepPlan plan{.spec = s,
                      .schedule = p.schedule,
                      .costs = costs,
                      .placement = p.placement,
                      .params = params};
  std::vector<RankProgram> ranks;
  for (int r = 0; r < sh.pp; ++r) {
    ranks.push_back(build_rank_program(plan, r));
  }
  LinkedTasks linked = link_pipeline(ranks);
  p.tasks = std::move(linked.tasks);
  for (int r = 0; r < sh.pp; ++r) {
    const auto& last = linked.last[static_cast<std::size_t>(r)];
    std::vector<StepTask> end = step_end(plan, r, static_cast<int>(p.tasks.size()),
                                         last[static_cast<std::size_t>(StepStream::compute)],
                                         last[static_cast<std::size_t>(StepStream::data_parallel)]);
    // The optimizer: memory-bound, taken at the elementwise kernels' full power.
    constexpr auto kOptimizer = hardware::PowerActivity::elementwise;
    for (const StepTask& t : end) {
      if (t.stream == StepStream::compute) {
        p.rank_work[static_cast<std::size_t>(r)].add(
            kOptimizer, t.duration, t.duration.value * cost::reference_rate(kOptimizer, s.gpu),
            s.gpu);
      }
    }
    p.tasks.insert(p.tasks.end(), std::make_move_iterator(end.begin()),
                   std::make_move_iterator(end.end()));
  }
  return p;
}

StepTrace to_step_trace(const StepProgram& p) {
  StepTrace t;
  t.source = "codesim step synthesis (" + std::string(schedule_method_name(p.schedule.method)) +
             ", " + std::to_string(p.schedule.ranks) + " ranks, " +
             std::to_string(p.schedule.micro_batches) + " micro-batches)";
  t.ops.reserve(p.tasks.size());
  for (const auto& task : p.tasks) {
    Op op;
    op.id = task.id;
    op.rank = task.rank;
    op.stream = static_cast<int>(task.stream);
    op.name = piece_label(task.piece);
    if (task.comm) {
      op.kind = task.comm->kind == CommKind::pp_send ? OpKind::send : OpKind::collective;
      op.op_class = cost::KernelClass::communication;
      op.bytes = task.comm->bytes.value;
      op.peer = task.comm->to_rank;
    }
    op.deps = task.deps;
    op.tags.piece = op.name;
    op.tags.chunk = task.chunk;
    if (task.comm) {
      op.tags.micro_batch = task.comm->micro_batch;
      op.tags.layer = task.comm->layer;
    }
    t.ops.push_back(std::move(op));
  }
  return t;
}

}  // namespace codesim::workload
