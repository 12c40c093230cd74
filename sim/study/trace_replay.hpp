// Replaying a profiler trace on another GPU (codesim trace replay): the trace's efficiencies
// fitted per kernel class, each op's time predicted for the target, the DAG list-scheduled.
#pragma once

#include "models/hardware/hardware_spec.hpp"
#include "models/llm/llm_spec.hpp"
#include "sim/workload/step_trace.hpp"
#include "sim/workload/timeline.hpp"
#include "sim/workload/trace_model.hpp"

namespace codesim::study {

struct TraceReplaySpec {
  const llm::LlmSpec* model = nullptr;  // what the trace ran
  int tokens = 4096;                    // per micro-batch on the profiled GPU
  hardware::GpuSpec measured_on;
  hardware::GpuSpec target;
};

struct TraceReplay {
  workload::TraceFit fit;  // fitted to this trace
  workload::Timeline measured;
  workload::Timeline predicted;
  workload::TimelineSummary measured_summary;
  workload::TimelineSummary predicted_summary;
};

// Throws std::invalid_argument when the trace has nothing to fit (no GEMMs inside pieces).
TraceReplay replay_trace(const workload::StepTrace& trace, const TraceReplaySpec& spec);

}  // namespace codesim::study
