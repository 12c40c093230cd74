// Every compute piece of the step priced once, alone and overlapped.
#include "sim/workload/piece_costs.hpp"

#include <initializer_list>

#include "sim/workload/step_program.hpp"
#include "sim/workload/training_state.hpp"

namespace codesim::workload {
namespace {

constexpr PieceId kComputePieces[] = {
    {PieceKind::attention, Pass::forward}, {PieceKind::attention, Pass::backward},
    {PieceKind::attention, Pass::weight},  {PieceKind::mlp, Pass::forward},
    {PieceKind::mlp, Pass::backward},      {PieceKind::mlp, Pass::weight},
};

}  // namespace

double gradient_accumulation_bytes(const StepShape& sh, SoftwareStack stack) {
  if (sh.micro_batches <= 1 || sh.zero >= 2 || stack == SoftwareStack::deepseek) {
    return 0;
  }
  return kParameterBytes + 2 * sh.precision.gradient_bytes;
}

StageCosts PieceCosts::stage_costs() const {
  StageCosts c;
  for (const LayerTimes& t : layers) {
    c.layer.push_back((t.alone.at({PieceKind::attention, Pass::forward}) +
                       t.alone.at({PieceKind::mlp, Pass::forward}))
                          .value);
  }
  c.embedding = embedding.alone.at({PieceKind::embedding, Pass::forward}).value;
  c.head = head.alone.at({PieceKind::head, Pass::forward}).value;
  return c;
}

PieceCosts price_pieces(const StepSpec& s, const std::vector<double>& layer_clock,
                        double head_clock) {
  const StepShape& sh = s.shape;
  PieceContext c{
      .model = s.model,
      .gpu = s.gpu,
      .kernels = {.tokens = sh.tokens_per_cp_shard(),
                  .seq_len = sh.seq_len,
                  .fp8_gemm = s.fp8_gemm,
                  .ep = sh.ep,
                  .tp = sh.tp,
                  .sequence_parallel = sh.sequence_parallel,
                  .expert_rows = s.busiest_expert_rows,
                  .loss = true,
                  .unfused_attention = sh.attention == AttentionKernel::unfused,
                  .dropout = sh.dropout,
                  .recompute_selected = s.pieces.stack.stack == SoftwareStack::deepseek,
                  .gradient_accumulation = gradient_accumulation_bytes(sh, s.pieces.stack.stack)}};
  auto price = [&](LayerTimes& t, PieceId piece, int layer) {
    c.held_sms = 0;
    const PieceCost alone = piece_cost(s.pieces, c, piece, s.model->layer(layer));
    t.alone[piece] = alone.total;
    t.work[piece] = alone.work;
    c.held_sms = s.comm_sms;
    t.overlapped[piece] = piece_time(s.pieces, c, piece, layer);
  };
  PieceCosts out;
  for (int l = 0; l < s.model->layers; ++l) {
    c.clock = layer_clock.empty() ? 1.0 : layer_clock[static_cast<std::size_t>(l)];
    LayerTimes t;
    t.moe = s.model->is_moe_layer(l) && sh.ep > 1;
    for (const PieceId piece : kComputePieces) {
      price(t, piece, l);
    }
    out.layers.push_back(std::move(t));
  }
  c.clock = head_clock;
  for (const Pass pass : {Pass::forward, Pass::backward, Pass::weight}) {
    price(out.head, {PieceKind::head, pass}, 0);
  }
  // The embedding runs on the stage of the first layer, at its clock.
  c.clock = layer_clock.empty() ? 1.0 : layer_clock.front();
  for (const Pass pass : {Pass::forward, Pass::weight}) {
    price(out.embedding, {PieceKind::embedding, pass}, 0);
  }
  c.clock = 1;
  c.held_sms = 0;
  out.combine_b_overhead = piece_overhead(s.pieces, c, {PieceKind::combine, Pass::backward});
  return out;
}

namespace {

// A chunk's pieces of one stage in `passes`.
void add_stage(cost::Work& w, const PieceCosts& costs, const StageLayers& st,
               std::initializer_list<Pass> passes) {
  for (const Pass pass : passes) {
    for (int l = st.first_layer; l <= st.last_layer; ++l) {
      const LayerTimes& t = costs.layers[static_cast<std::size_t>(l)];
      for (const PieceKind kind : {PieceKind::attention, PieceKind::mlp}) {
        w += t.work.at({kind, pass});
      }
    }
    if (st.head) {
      w += costs.head.work.at({PieceKind::head, pass});
    }
    if (st.embedding && pass != Pass::backward) {
      w += costs.embedding.work.at({PieceKind::embedding, pass});
    }
  }
}

}  // namespace

cost::Work rank_work(const PieceCosts& costs, const PipelineSchedule& schedule,
                     const std::vector<StageLayers>& placement, int rank) {
  cost::Work w;
  auto stage = [&](const StageWork& sw) -> const StageLayers& {
    return placement[static_cast<std::size_t>(sw.stage)];
  };
  for (const Chunk& ch : schedule.per_rank[static_cast<std::size_t>(rank)]) {
    switch (ch.kind) {
      case ChunkKind::forward:
        add_stage(w, costs, stage(ch.work), {Pass::forward});
        break;
      case ChunkKind::backward:
        add_stage(w, costs, stage(ch.work), {Pass::backward, Pass::weight});
        break;
      case ChunkKind::backward_input:
        add_stage(w, costs, stage(ch.work), {Pass::backward});
        break;
      case ChunkKind::weight:
        add_stage(w, costs, stage(ch.work), {Pass::weight});
        break;
      case ChunkKind::forward_backward:
        add_stage(w, costs, stage(ch.work), {Pass::forward});
        add_stage(w, costs, stage(ch.backward), {Pass::backward, Pass::weight});
        break;
    }
  }
  return w;
}

}  // namespace codesim::workload
