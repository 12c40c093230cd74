// A layer's F, B and W: its attention and mlp pieces' kernels priced one by one.
#include "sim/workload/layer_cost.hpp"

#include <stdexcept>

namespace codesim::workload {
namespace {

PieceCost pass_cost(const PieceModel& pm, const PieceContext& c, Pass pass, bool dense_layer) {
  PieceCost cost;
  for (const PieceKind kind : {PieceKind::attention, PieceKind::mlp}) {
    cost += piece_cost(pm, c, {kind, pass}, dense_layer);
  }
  return cost;
}

}  // namespace

LayerCost layer_cost(const PieceModel& pm, const PieceContext& c, bool dense_layer) {
  if (c.model == nullptr || c.kernels.tokens < 1) {
    throw std::invalid_argument("layer_cost needs a model and a positive token count");
  }
  return {.forward = pass_cost(pm, c, Pass::forward, dense_layer),
          .backward_input = pass_cost(pm, c, Pass::backward, dense_layer),
          .backward_weight = pass_cost(pm, c, Pass::weight, dense_layer)};
}

}  // namespace codesim::workload
