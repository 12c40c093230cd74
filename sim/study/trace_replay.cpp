// Fit, predict, list-schedule, summarize.
#include "sim/study/trace_replay.hpp"

#include "sim/workload/replay.hpp"

namespace codesim::study {

TraceReplay replay_trace(const workload::StepTrace& trace, const TraceReplaySpec& spec) {
  TraceReplay r;
  r.fit = workload::fit_trace(trace, *spec.model, spec.tokens, spec.measured_on);
  r.measured = workload::measured_timeline(trace);
  r.predicted =
      workload::replay(trace, workload::predicted_durations(trace, *spec.model, spec.tokens, r.fit,
                                                            spec.measured_on, spec.target));
  r.measured_summary = workload::summarize(trace, r.measured);
  r.predicted_summary = workload::summarize(trace, r.predicted);
  return r;
}

}  // namespace codesim::study
