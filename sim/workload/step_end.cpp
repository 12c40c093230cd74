// The optimizer and the parameters' all-gathers that end a rank's step.
#include "sim/workload/step_end.hpp"

#include "models/cost/kernel_cost.hpp"
#include "sim/workload/optimizer_update.hpp"
#include "sim/workload/step_program.hpp"
#include "sim/workload/training_state.hpp"

namespace codesim::workload {

std::vector<StepTask> step_end(const StepPlan& plan, int rank, int first_id, int last_compute,
                               int last_data_parallel) {
  const StepSpec& s = plan.spec;
  const StepShape& sh = s.shape;
  const std::vector<int> stages = plan.schedule.stages_of(rank);
  double dense = 0;
  double experts = 0;
  for (int st : stages) {
    dense += plan.params.stages[static_cast<std::size_t>(st)].dense;
    experts += plan.params.stages[static_cast<std::size_t>(st)].experts;
  }
  std::vector<StepTask> out;
  auto add = [&](StepStream stream, core::Seconds duration, PieceId piece, std::vector<int> deps,
                 std::optional<CommRef> comm) {
    out.push_back(make_step_task(first_id + static_cast<int>(out.size()), rank, stream, duration,
                                 piece, deps, std::move(comm)));
    return out.back().id;
  };
  // Without overlap the gradients' reduction starts once the rank's backward has ended, one per
  // stage (Megatron-LM's 2021 DDP over its contiguous buffer); with it, the last chunk
  // reduce-scattered them bucket by bucket (rank_program.cpp). ZeRO-0 then all-gathers the
  // reduced gradients (with the reduce-scatter, an all-reduce) before every replica updates every
  // parameter; ZeRO-1 and 2 all-gather the updated parameters after the update.
  auto for_each_group = [&](int st, auto&& f) {
    for_each_replicated_group(sh, plan.params.stages[static_cast<std::size_t>(st)], f);
  };
  auto collective = [&](CommKind kind, PieceKind piece, Pass pass, int st, double bytes,
                        bool of_experts, std::vector<int> deps) {
    return add(
        StepStream::data_parallel, {}, {piece, pass}, std::move(deps),
        CommRef{.kind = kind, .stage = st, .bytes = core::Bytes(bytes), .experts = of_experts});
  };
  std::vector<int> before_update{last_compute, last_data_parallel};
  for (int st : stages) {
    for_each_group(st, [&](double params, bool of_experts) {
      const double bytes = params * sh.precision.gradient_bytes;
      int last = last_data_parallel;
      if (!sh.dp_overlap) {
        last = collective(CommKind::dp_reduce_scatter, PieceKind::dp_reduce_scatter, Pass::backward,
                          st, bytes, of_experts, {last_compute});
      }
      if (sh.zero == 0) {
        last = collective(CommKind::dp_all_gather, PieceKind::dp_all_gather, Pass::none, st, bytes,
                          of_experts, {last_compute, last});
      }
      if (last != last_data_parallel) {
        before_update.push_back(last);
      }
    });
  }
  const double shard = dense / sh.optimizer_shards() + experts / sh.expert_optimizer_shards();
  const int opt = add(StepStream::compute,
                      cost::predict(adamw_update(s.optimizer, sh.precision, shard, s.gpu), s.gpu,
                                    s.gpu.sms, s.pieces.params.kernel)
                          .time,
                      {PieceKind::optimizer}, before_update, std::nullopt);
  if (sh.zero == 0 || sh.zero == 3) {
    // ZeRO-0: every replica updated every parameter; ZeRO-3: parameters stay sharded, each layer
    // gathers its own before it runs.
    return out;
  }
  for (int st : stages) {
    for_each_group(st, [&](double params, bool of_experts) {
      collective(CommKind::dp_all_gather, PieceKind::dp_all_gather, Pass::none, st,
                 params * kParameterBytes, of_experts, {opt});
    });
  }
  return out;
}

}  // namespace codesim::workload
