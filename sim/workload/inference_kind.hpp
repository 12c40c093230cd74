// Which inference step runs, and how it is priced: one vocabulary for scenarios, the inference
// model and their results.
#pragma once

namespace codesim::workload {

enum class InferencePhase { prefill, decode };  // the scenario's workload.kind
enum class InferenceMode { model, bound };      // inference.mode: the kernel model or ISCA's bound

}  // namespace codesim::workload
