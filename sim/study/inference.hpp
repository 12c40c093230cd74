// Inference studies: one prefill or decode step of a scenario (workload.kind prefill | decode).
#pragma once

#include "sim/config/scenario.hpp"
#include "sim/metrics/inference_result.hpp"
#include "sim/study/budget.hpp"

namespace codesim::study {

// The step as the scenario describes it: bound mode (ISCA 2.3.2, decode only) or the full model
// (routing from the reference gate with EPLB replicas, dispatch and combine simulated on SimGrid,
// pieces from the cost model or the calibrated piece model, micro-batches overlapped). Throws
// core::InputError (located at the scenario key) for a scenario the model cannot run, or whose
// platform exceeds the budget (checked before it is built).
metrics::InferenceResult simulate_inference(const config::Scenario& s, const Budget& budget = {});

}  // namespace codesim::study
