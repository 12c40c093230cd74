// A layer's F, B and W: its attention and mlp pieces' kernels priced one by one.
#include "sim/workload/layer_cost.hpp"

#include <stdexcept>

namespace codesim::workload {
namespace {

PieceCost pass_cost(const PieceModel& pm, const PieceContext& c, Pass pass, const llm::LayerKind& layer) {
  PieceCost cost;
  for (const PieceKind kind : {PieceKind::attention, PieceKind::mlp}) {
    cost += piece_cost(pm, c, {kind, pass}, layer);
  }
  return cost;
}

}  // namespace

LayerCost layer_cost(const PieceModel& pm, const PieceContext& c, const llm::LayerKind& layer) {
  if (c.model == nullptr || c.kernels.tokens < 1) {
    throw std::invalid_argument("layer_cost needs a model and a positive token count");
  }
  return {.forward = pass_cost(pm, c, Pass::forward, layer),
          .backward_input = pass_cost(pm, c, Pass::backward, layer),
          .backward_weight = pass_cost(pm, c, Pass::weight, layer)};
}

}  // namespace codesim::workload
