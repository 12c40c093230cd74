// Every compute piece of the step priced once, alone and overlapped.
#include "sim/workload/piece_costs.hpp"

#include "sim/workload/step_program.hpp"

namespace codesim::workload {
namespace {

constexpr PieceId kComputePieces[] = {
    {PieceKind::attention, Pass::forward}, {PieceKind::attention, Pass::backward},
    {PieceKind::attention, Pass::weight},  {PieceKind::mlp, Pass::forward},
    {PieceKind::mlp, Pass::backward},      {PieceKind::mlp, Pass::weight},
};

}  // namespace

StageCosts PieceCosts::stage_costs() const {
  StageCosts c;
  for (const LayerTimes& t : layers) {
    c.layer.push_back((t.alone.at({PieceKind::attention, Pass::forward}) +
                       t.alone.at({PieceKind::mlp, Pass::forward}))
                          .value);
  }
  c.head = head.alone.at({PieceKind::head, Pass::forward}).value;
  return c;
}

PieceCosts price_pieces(const StepSpec& s) {
  const StepShape& sh = s.shape;
  PieceContext c{.model = s.model,
                 .gpu = s.gpu,
                 .kernels = {.tokens = sh.tokens_per_cp_shard(),
                             .seq_len = sh.seq_len,
                             .fp8_gemm = s.fp8_gemm,
                             .ep = sh.ep,
                             .tp = sh.tp,
                             .sequence_parallel = sh.sequence_parallel,
                             .expert_rows = s.busiest_expert_rows}};
  auto price = [&](LayerTimes& t, PieceId piece, int layer) {
    c.held_sms = 0;
    t.alone[piece] = piece_time(s.pieces, c, piece, layer);
    c.held_sms = s.comm_sms;
    t.overlapped[piece] = piece_time(s.pieces, c, piece, layer);
  };
  PieceCosts out;
  for (int l = 0; l < s.model->layers; ++l) {
    LayerTimes t;
    t.moe = s.model->is_moe_layer(l) && sh.ep > 1;
    for (const PieceId piece : kComputePieces) {
      price(t, piece, l);
    }
    out.layers.push_back(std::move(t));
  }
  for (const Pass pass : {Pass::forward, Pass::backward, Pass::weight}) {
    price(out.head, {PieceKind::head, pass}, 0);
  }
  c.held_sms = 0;
  out.combine_b_overhead = piece_overhead(s.pieces, c, {PieceKind::combine, Pass::backward});
  return out;
}

}  // namespace codesim::workload
