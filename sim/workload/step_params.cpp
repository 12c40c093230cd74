// Parameters per GPU: per layer, embedding, head, and per stage.
#include "sim/workload/step_params.hpp"

#include <algorithm>

#include "sim/workload/step_program.hpp"

namespace codesim::workload {

GpuParams params_on_gpu(const StepShape& shape, const std::vector<llm::LayerOp>& ops) {
  GpuParams p;
  for (const auto& op : ops) {
    if (op.routed_expert()) {
      p.experts += op.params / std::max(1, shape.ep);
    } else {
      p.dense += op.params / (op.split == llm::TensorSplit::none ? 1 : std::max(1, shape.tp));
    }
  }
  return p;
}

StepParams step_params(const StepSpec& s, const std::vector<StageLayers>& placement) {
  // Parameters do not depend on the token count; the op tables want one.
  const llm::OpShape ops{.seq_len = s.shape.tokens_per_micro_batch(), .micro_batch = 1};
  StepParams p;
  for (int l = 0; l < s.model->layers; ++l) {
    p.layers.push_back(params_on_gpu(s.shape, llm::layer_ops(*s.model, l, ops)));
  }
  for (const auto& block : llm::model_blocks(*s.model, ops)) {
    const bool head = block.kind == llm::BlockKind::head || block.kind == llm::BlockKind::mtp;
    if (block.kind == llm::BlockKind::embedding) {
      p.embedding += params_on_gpu(s.shape, block.ops);
    } else if (head) {
      p.head += params_on_gpu(s.shape, block.ops);
    }
  }
  for (const StageLayers& sl : placement) {
    GpuParams st;
    for (int l = sl.first_layer; l <= sl.last_layer; ++l) {
      st += p.layers[static_cast<std::size_t>(l)];
    }
    if (sl.embedding) {
      st += p.embedding;
    }
    if (sl.head) {
      st += p.head;
    }
    p.stages.push_back(st);
  }
  return p;
}

}  // namespace codesim::workload
