// Replaying a profiler trace on another GPU (codesim trace replay): the trace set against the
// kernel model per kernel class and per piece, each op's time predicted for the target by the
// shipped compute model (workload::deepseek_profile), the DAG list-scheduled.
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
  int seq_len = 4096;
  int ep = 1;        // expert parallelism of the profiled run (experts per GPU)
  int held_sms = 0;  // SMs communication held while the pieces ran
  hardware::GpuSpec measured_on;
  hardware::GpuSpec target;
};

struct TraceReplay {
  workload::TraceFit fit;  // this trace against the kernel model (its own scales applied)
  workload::Timeline measured;
  workload::Timeline predicted;
  workload::TimelineSummary measured_summary;
  workload::TimelineSummary predicted_summary;
};

// Throws std::invalid_argument when the trace has nothing to fit (no GEMMs inside pieces).
TraceReplay replay_trace(const workload::StepTrace& trace, const TraceReplaySpec& spec);

}  // namespace codesim::study
