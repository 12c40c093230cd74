// Stage 3 of a training step's assembly (step_program.hpp): the parameters each GPU holds, per
// layer, for the embedding and the head, and per pipeline stage once layers are placed.
#pragma once

#include <vector>

#include "models/llm/layer_ops.hpp"
#include "sim/workload/stage_placement.hpp"
#include "sim/workload/step_shape.hpp"

namespace codesim::workload {

struct StepSpec;

// Parameters on one GPU: dense ones (a TP group's share of the split weights), replicated over
// the gradient replicas, and routed experts' (this GPU's share under EP), replicated over the
// expert replicas.
struct GpuParams {
  double dense = 0;
  double experts = 0;
  GpuParams& operator+=(const GpuParams& o) {
    dense += o.dense;
    experts += o.experts;
    return *this;
  }
};

GpuParams params_on_gpu(const StepShape& shape, const std::vector<llm::LayerOp>& ops);

// Dense parameters (synchronized over the gradient replicas) and routed experts' on this GPU
// (over the expert replicas), each when it has replicas to synchronize with: f(params, experts).
template <class F>
void for_each_replicated_group(const StepShape& shape, const GpuParams& g, F&& f) {
  if (shape.gradient_replicas() > 1 && g.dense > 0) {
    f(g.dense, false);
  }
  if (shape.expert_replicas() > 1 && g.experts > 0) {
    f(g.experts, true);
  }
}

struct StepParams {
  std::vector<GpuParams> layers;  // per transformer layer
  GpuParams embedding;
  GpuParams head;                 // the output head with the MTP modules
  std::vector<GpuParams> stages;  // per pipeline stage of the placement
};

StepParams step_params(const StepSpec& s, const std::vector<StageLayers>& placement);

}  // namespace codesim::workload
