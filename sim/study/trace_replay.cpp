// Fit, predict, list-schedule, summarize.
#include "sim/study/trace_replay.hpp"

#include "sim/workload/piece_model.hpp"
#include "sim/workload/replay.hpp"

namespace codesim::study {

TraceReplay replay_trace(const workload::StepTrace& trace, const TraceReplaySpec& spec) {
  TraceReplay r;
  const workload::TraceSetting setting{
      .model = spec.model,
      // DeepSeek's stack, as the scales the prediction takes (its recomputation included).
      .kernels = {.tokens = spec.tokens,
                  .seq_len = spec.seq_len,
                  .fp8_gemm = true,
                  .ep = spec.ep,
                  .recompute_selected = true},
      .gpu = spec.measured_on,
      .held_sms = spec.held_sms,
      .params = {cost::default_params(), cost::attention_params()}};
  r.fit = workload::fit_trace(trace, setting);
  r.measured = workload::measured_timeline(trace);
  r.predicted =
      workload::replay(trace, workload::predicted_durations(trace, setting, spec.target,
                                                            workload::deepseek_profile().params));
  r.measured_summary = workload::summarize(trace, r.measured);
  r.predicted_summary = workload::summarize(trace, r.predicted);
  return r;
}

}  // namespace codesim::study
