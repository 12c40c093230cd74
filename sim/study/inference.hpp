// Inference studies: one prefill or decode step of a scenario (workload.kind prefill | decode).
#pragma once

#include "sim/config/scenario.hpp"
#include "sim/metrics/inference_result.hpp"
#include "sim/study/budget.hpp"
#include "topologies/routing.hpp"

namespace codesim::study {

// The step as the scenario describes it: bound mode (ISCA 2.3.2, decode only) or the full model
// (routing from the reference gate with EPLB replicas, dispatch and combine simulated on SimGrid,
// pieces from the cost model or the calibrated piece model, micro-batches overlapped). Throws
// core::InputError (located at the scenario key) for a scenario the model cannot run, or whose
// platform exceeds the budget (checked before it is built).
metrics::InferenceResult simulate_inference(const config::Scenario& s, const Budget& budget = {});

// A step of the scenario's model (its workload.kind) at another load, the routing uniform (what
// the serving loop prices each step with): `tokens` per micro-batch on each GPU (decode:
// requests; prefill: prompt tokens), `context` each decode request's cached tokens or the prompt
// length, dispatch and combine per layer and micro-batch as given (zero without EP). Priced under
// the power governor as if the step ran back to back (the serving loop's steps do), as
// simulate_inference prices its step.
struct StepLoad {
  int tokens = 1;
  int context = 1;
  core::Seconds dispatch;
  core::Seconds combine;
  // With pp > 1, the path from a stage's first GPU to the next stage's (stage_link); when not
  // given (zero bandwidth), step_price_at builds the scenario's topology to find it.
  topologies::PathTiming stage_link;
};

// The path between pipeline stages through the scenario's topology: from GPU 0 to the first GPU
// of the second stage (stages hold gpus / pp consecutive GPUs); none (zero) when pp is 1.
topologies::PathTiming stage_link(const config::Scenario& s, const topologies::Topology& t);
core::Seconds step_time_at(const config::Scenario& s, const StepLoad& load);

// The same step's time and the energy its GPUs (all of the scenario's) draw over it: busy at
// their governed clock, awake while they wait within it (metrics::step_energy); 0 J without a
// power model.
struct StepPrice {
  core::Seconds time;
  double gpu_joules = 0;
};
StepPrice step_price_at(const config::Scenario& s, const StepLoad& load);

// What a step at that load allocates beside weights and KV cache on one GPU at its peak, every
// micro-batch's (sim/workload/inference_transient.hpp), the routing uniform.
core::Bytes activations_at(const config::Scenario& s, const StepLoad& load);

// The weights one GPU of the scenario holds (its share of attention and dense layers, its hosted
// experts): FP8 GEMMs one byte per parameter, BF16 two.
core::Bytes weights_per_gpu(const config::Scenario& s);

}  // namespace codesim::study
