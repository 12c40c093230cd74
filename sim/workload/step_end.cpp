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
  const double shard = dense / sh.gradient_replicas() + experts / sh.expert_replicas();
  const int opt = add(StepStream::compute,
                      cost::predict(adamw_update(s.optimizer, sh.precision, shard, s.gpu), s.gpu,
                                    s.gpu.sms, s.pieces.params.kernel)
                          .time,
                      {PieceKind::optimizer}, {last_compute, last_data_parallel}, std::nullopt);
  if (sh.zero == 3) {
    return out;  // parameters stay sharded; each layer gathers its own before it runs
  }
  for (int st : stages) {
    const GpuParams& g = plan.params.stages[static_cast<std::size_t>(st)];
    auto gather = [&](double params, bool of_experts) {
      add(StepStream::data_parallel, {}, {PieceKind::dp_all_gather}, {opt},
          CommRef{.kind = CommKind::dp_all_gather,
                  .stage = st,
                  .bytes = core::Bytes(params * kParameterBytes),
                  .experts = of_experts});
    };
    if (sh.gradient_replicas() > 1) {
      gather(g.dense, false);
    }
    if (sh.expert_replicas() > 1 && g.experts > 0) {
      gather(g.experts, true);
    }
  }
  return out;
}

}  // namespace codesim::workload
