// One transformer layer's compute on one GPU, forward and backward, as the step prices it: the
// attention and mlp pieces' kernels (piece_kernels.hpp) in passes F, B and W, summed. What a
// layer measured alone (models/calibration/h200/moe's layers) is compared with.
#pragma once

#include "sim/core/units.hpp"
#include "sim/workload/piece_model.hpp"

namespace codesim::workload {

struct LayerCost {
  PieceCost forward;         // F of the attention and mlp pieces
  PieceCost backward_input;  // B
  PieceCost backward_weight; // W
  core::Seconds forward_backward() const {
    return forward.total + backward_input.total + backward_weight.total;
  }
};

// A layer of kind `layer` (not MoE: its FFN is the dense one and its attention has no router).
LayerCost layer_cost(const PieceModel& pm, const PieceContext& c, const llm::LayerKind& layer);

}  // namespace codesim::workload
