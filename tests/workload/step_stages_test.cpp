// Each stage of a training step's assembly alone (step_program.hpp): the shape's derived
// quantities, piece costs, parameters, one rank's program, the pipeline links, the step's end.
#include <gtest/gtest.h>

#include <set>

#include "sim/workload/piece_costs.hpp"
#include "sim/workload/pipeline_link.hpp"
#include "sim/workload/rank_program.hpp"
#include "sim/workload/step_end.hpp"
#include "sim/workload/step_params.hpp"
#include "sim/workload/step_program.hpp"
#include "tests/support/dense_step.hpp"

namespace codesim::workload {
namespace {

TEST(StepShape, EveryPerGpuQuantityFromTheParallelismAndTheBatch) {
  const StepShape s{.pp = 4,
                    .dp = 8,
                    .tp = 8,
                    .cp = 2,
                    .ep = 16,
                    .seq_len = 8192,
                    .sequences_per_micro_batch = 2,
                    .micro_batches = 16};
  EXPECT_EQ(s.gpus(), 4 * 8 * 8 * 2);
  EXPECT_EQ(s.gpus_per_rank(), 8 * 8 * 2);
  EXPECT_EQ(s.tokens_per_micro_batch(), 2 * 8192);
  EXPECT_EQ(s.tokens_per_cp_shard(), 2 * 8192 / 2);
  EXPECT_EQ(s.tokens_per_gpu(), 2 * 8192 / 2 / 8);  // sequence parallelism splits over TP
  EXPECT_EQ(s.gradient_replicas(), 8 * 2);          // data x context parallelism
  EXPECT_EQ(s.expert_replicas(), 8 * 2 / 16);
  EXPECT_DOUBLE_EQ(s.sequences_per_step(), 8.0 * 2 * 16);
  StepShape no_sp = s;
  no_sp.sequence_parallel = false;
  EXPECT_EQ(no_sp.tokens_per_gpu(), 2 * 8192 / 2);  // every TP GPU holds the whole shard
  StepShape wide_ep = s;
  wide_ep.ep = 64;
  EXPECT_EQ(wide_ep.expert_replicas(), 1);  // an EP group wider than the replicas: no copies
}

StepSpec moe_step() {
  auto s = testing::dense_step("deepseek-v2-lite", 4);
  s.shape.ep = 8;
  s.shape.dp = 8;
  s.comm_sms = 20;
  s.fp8_gemm = true;  // combine(B) then casts its gradients to FP8 before it sends
  return s;
}

TEST(PieceCosts, EveryLayerPricedAloneAndBesideCommunication) {
  const StepSpec s = moe_step();
  const PieceCosts c = price_pieces(s);
  ASSERT_EQ(c.layers.size(), static_cast<std::size_t>(s.model->layers));
  for (std::size_t l = 0; l < c.layers.size(); ++l) {
    const LayerTimes& t = c.layers[l];
    EXPECT_EQ(t.moe, s.model->is_moe_layer(static_cast<int>(l)));  // ep 8 > 1
    EXPECT_EQ(t.alone.size(), 6u);                                 // attn and mlp in F, B, W
    for (const auto& [piece, alone] : t.alone) {
      // 20 SMs held leave 112 of 132: never faster.
      EXPECT_GE(t.overlapped.at(piece).value, alone.value) << piece_label(piece);
    }
  }
  EXPECT_GT(c.combine_b_overhead.value, 0);  // combine(B) casts before it sends
  // Placement balances the forward: attention + FFN per layer, the head on its own.
  const StageCosts sc = c.stage_costs();
  EXPECT_DOUBLE_EQ(sc.layer[3], (c.layers[3].alone.at({PieceKind::attention, Pass::forward}) +
                                 c.layers[3].alone.at({PieceKind::mlp, Pass::forward}))
                                    .value);
  EXPECT_DOUBLE_EQ(sc.head, c.head.alone.at({PieceKind::head, Pass::forward}).value);
  // Without expert parallelism no layer dispatches.
  StepSpec one_gpu = s;
  one_gpu.shape.ep = 1;
  for (const LayerTimes& t : price_pieces(one_gpu).layers) {
    EXPECT_FALSE(t.moe);
  }
}

TEST(StepParams, StagesHoldTheirLayersAndBlocks) {
  const StepSpec s = moe_step();
  const std::vector<StageLayers> placement{{0, 9, true, false}, {10, 26, false, true}};
  const StepParams p = step_params(s, placement);
  ASSERT_EQ(p.stages.size(), 2u);
  GpuParams first = p.embedding;
  for (int l = 0; l <= 9; ++l) {
    first += p.layers[static_cast<std::size_t>(l)];
  }
  EXPECT_DOUBLE_EQ(p.stages[0].dense, first.dense);
  EXPECT_DOUBLE_EQ(p.stages[0].experts, first.experts);
  // Routed experts are this GPU's share: 64 experts / ep 8; the first layer is dense.
  EXPECT_EQ(p.layers[0].experts, 0);
  EXPECT_GT(p.layers[1].experts, 0);
  StepSpec all_experts = s;
  all_experts.shape.ep = 1;
  EXPECT_DOUBLE_EQ(step_params(all_experts, placement).layers[1].experts, p.layers[1].experts * 8);
}

// Stages 1-3 of a 4-rank 1F1B step, for the stages after them.
struct Planned {
  StepSpec spec = moe_step();
  PipelineSchedule schedule = make_schedule(ScheduleMethod::one_f_one_b, 4, 4);
  PieceCosts costs = price_pieces(spec);
  std::vector<StageLayers> placement = place_layers(costs.stage_costs(), 4);
  StepParams params = step_params(spec, placement);
  StepPlan plan() const { return {spec, schedule, costs, placement, params}; }
};

TEST(RankProgram, OneRankAloneWaitsForItsNeighboursSends) {
  const Planned p;
  // Rank 1 (stage 1): each of 4 micro-batches waits once for stage 0's activations and once for
  // stage 2's gradients, and sends both on.
  const RankProgram r = build_rank_program(p.plan(), 1);
  EXPECT_EQ(r.waits.size(), 2u * 4);
  EXPECT_EQ(r.forward_sent.size(), 4u);
  EXPECT_EQ(r.backward_sent.size(), 4u);
  for (const PipelineWait& w : r.waits) {
    EXPECT_EQ(std::get<1>(w.key), w.forward ? 0 : 2);
  }
  for (std::size_t i = 0; i < r.tasks.size(); ++i) {
    EXPECT_EQ(r.tasks[i].id, static_cast<int>(i));  // numbered from 0, its own
    EXPECT_EQ(r.tasks[i].rank, 1);
    for (int d : r.tasks[i].deps) {
      EXPECT_LT(d, r.tasks[i].id);  // within the rank, a task waits only for earlier ones
    }
  }
  // The first rank waits for no activations; the last sends none.
  const RankProgram first = build_rank_program(p.plan(), 0);
  for (const PipelineWait& w : first.waits) {
    EXPECT_FALSE(w.forward);
  }
  EXPECT_TRUE(build_rank_program(p.plan(), 3).forward_sent.empty());
}

// A forward chunk whose last layer is an MoE layer ends with that layer's combine: the sum into
// the residual stream is a compute-stream kernel, so the compute stream waits for the combine (a
// zero-length task) before the next chunk's first kernel, and the send follows that wait.
TEST(RankProgram, AForwardChunkEndsWhenItsLastCombineDoes) {
  const Planned p;
  ASSERT_TRUE(p.spec.model->is_moe_layer(p.placement[0].last_layer));
  const RankProgram r = build_rank_program(p.plan(), 0);
  int waits = 0;
  for (const StepTask& t : r.tasks) {
    if (t.piece != PieceId{PieceKind::combine, Pass::forward} || t.stream != StepStream::compute) {
      continue;
    }
    ++waits;
    EXPECT_EQ(t.duration.value, 0);
    ASSERT_EQ(t.deps.size(), 1u);
    const StepTask& combine = r.tasks[static_cast<std::size_t>(t.deps[0])];
    ASSERT_TRUE(combine.comm);
    EXPECT_EQ(combine.comm->kind, CommKind::ep_combine);
    EXPECT_EQ(combine.comm->layer, p.placement[0].last_layer);
    EXPECT_EQ(combine.chunk, t.chunk);
  }
  EXPECT_EQ(waits, 4);  // one per micro-batch's forward
  for (const auto& [key, send] : r.forward_sent) {
    const StepTask& s = r.tasks[static_cast<std::size_t>(send)];
    EXPECT_EQ(r.tasks[static_cast<std::size_t>(s.deps.at(0))].piece,
              (PieceId{PieceKind::combine, Pass::forward}));
  }
}

// DeepSeek-V3's MTP module is a transformer layer of the last layer's kind, an MoE layer: the
// head stage dispatches and combines its tokens like any MoE layer's, and the head piece keeps
// the rest (the heads, norms and projection): head(F) - attn(F) - mlp(F) of the last layer.
TEST(RankProgram, MtpModulesRouteTheirTokensOverTheEpGroup) {
  Planned p;
  llm::LlmSpec v3 = testing::preset_model("deepseek-v3");
  v3.mtp_depth = 1;  // as DeepSeek-V3 trained (the preset, like the config file, has none)
  p.spec.model = &v3;
  p.costs = price_pieces(p.spec);
  p.placement = place_layers(p.costs.stage_costs(), 4);
  p.params = step_params(p.spec, p.placement);
  const StageLayers& last = p.placement[3];
  ASSERT_TRUE(last.head);
  int moe_layers = 0;
  for (int l = last.first_layer; l <= last.last_layer; ++l) {
    moe_layers += p.spec.model->is_moe_layer(l) ? 1 : 0;
  }
  const RankProgram r = build_rank_program(p.plan(), 3);
  int dispatches = 0;
  int mtp_dispatches = 0;
  core::Seconds head_f;
  for (const StepTask& t : r.tasks) {
    if (t.comm && t.comm->kind == CommKind::ep_dispatch && !t.comm->gradient) {
      ++dispatches;
      mtp_dispatches += t.comm->micro_batch == 0 && t.comm->layer == p.spec.model->layers - 1;
    }
    if (t.piece == PieceId{PieceKind::head, Pass::forward}) {
      head_f = t.duration;
    }
  }
  EXPECT_EQ(dispatches, 4 * (moe_layers + 1));  // 4 micro-batches, the MTP layer's included
  EXPECT_EQ(mtp_dispatches, 2);                 // layer 60 and the MTP layer
  const auto& layer = p.costs.layers.back().alone;
  EXPECT_NEAR(
      head_f.value,
      (p.costs.head.alone.at({PieceKind::head, Pass::forward}) -
       layer.at({PieceKind::attention, Pass::forward}) - layer.at({PieceKind::mlp, Pass::forward}))
          .value,
      1e-12);
}

// A pipeline send carries one GPU's share: the micro-batch's 8192 tokens / cp 2, / tp 8 under
// sequence parallelism (each GPU of the TP group sends its own), x hidden x 2 B of BF16.
TEST(RankProgram, PipelineSendsCarryOneGpusShare) {
  Planned p;
  p.spec.shape.tp = 8;
  p.spec.shape.cp = 2;
  auto send_bytes = [&] {
    for (const StepTask& t : build_rank_program(p.plan(), 0).tasks) {
      if (t.comm && t.comm->kind == CommKind::pp_send) {
        return t.comm->bytes.value;
      }
    }
    return 0.0;
  };
  const double hidden = p.spec.model->hidden;
  EXPECT_DOUBLE_EQ(send_bytes(), 8192.0 / 2 / 8 * hidden * kActivationBytes);
  p.spec.shape.sequence_parallel = false;  // every GPU of the TP group holds the whole shard
  EXPECT_DOUBLE_EQ(send_bytes(), 8192.0 / 2 * hidden * kActivationBytes);
}

TEST(PipelineLink, EveryWaitDependsOnTheNeighboursSend) {
  const Planned p;
  std::vector<RankProgram> ranks;
  std::size_t total = 0;
  std::size_t waits = 0;
  for (int r = 0; r < 4; ++r) {
    ranks.push_back(build_rank_program(p.plan(), r));
    total += ranks.back().tasks.size();
    waits += ranks.back().waits.size();
  }
  const LinkedTasks linked = link_pipeline(ranks);
  ASSERT_EQ(linked.tasks.size(), total);
  std::size_t linked_waits = 0;
  for (std::size_t i = 0; i < linked.tasks.size(); ++i) {
    const StepTask& t = linked.tasks[i];
    EXPECT_EQ(t.id, static_cast<int>(i));
    if (t.piece.kind != PieceKind::recv) {
      continue;
    }
    // Its last dependency is a pipeline send of the neighbouring rank, addressed to this one.
    const StepTask& send = linked.tasks[static_cast<std::size_t>(t.deps.back())];
    ASSERT_TRUE(send.comm.has_value());
    EXPECT_EQ(send.comm->kind, CommKind::pp_send);
    EXPECT_EQ(send.comm->to_rank, t.rank);
    EXPECT_EQ(std::abs(send.rank - t.rank), 1);
    ++linked_waits;
  }
  EXPECT_EQ(linked_waits, waits);
  // A wait with no send is a broken schedule.
  std::vector<RankProgram> alone{ranks[1]};
  EXPECT_THROW(link_pipeline(alone), std::logic_error);
}

TEST(StepEnd, OptimizerThenEachStagesParametersGathered) {
  Planned p;
  const std::vector<StepTask> end = step_end(p.plan(), 2, 1000, 7, 9);
  // ZeRO-1 with 8 gradient replicas and 8 / ep 8 = 1 expert replica: the optimizer on the shard,
  // then the stage's dense parameters gathered (experts have no replica to gather from).
  ASSERT_EQ(end.size(), 2u);
  EXPECT_EQ(end[0].id, 1000);
  EXPECT_EQ(end[0].piece.kind, PieceKind::optimizer);
  EXPECT_EQ(end[0].deps, (std::vector<int>{7, 9}));
  EXPECT_EQ(end[1].comm->kind, CommKind::dp_all_gather);
  EXPECT_EQ(end[1].deps, std::vector<int>{1000});
  EXPECT_DOUBLE_EQ(end[1].comm->bytes.value, p.params.stages[2].dense * kParameterBytes);
  p.spec.shape.zero = 3;  // parameters stay sharded: nothing to gather at the end
  EXPECT_EQ(step_end(p.plan(), 2, 0, -1, -1).size(), 1u);
  EXPECT_TRUE(step_end(p.plan(), 2, 0, -1, -1)[0].deps.empty());
}

TEST(StepEnd, WithoutOverlapTheGradientsAreAllReducedAfterTheBackward) {
  Planned p;
  // Megatron-LM's 2021 DDP (ZeRO-0, no overlap): once the rank's last compute (task 7) ends, the
  // stage's dense gradients are reduce-scattered and all-gathered (an all-reduce, in their own
  // type: 4 bytes), then the optimizer updates every parameter; nothing is gathered after it.
  p.spec.shape.zero = 0;
  p.spec.shape.dp_overlap = false;
  const std::vector<StepTask> end = step_end(p.plan(), 2, 1000, 7, 9);
  ASSERT_EQ(end.size(), 3u);
  const double gradients = p.params.stages[2].dense * p.spec.shape.precision.gradient_bytes;
  EXPECT_EQ(end[0].comm->kind, CommKind::dp_reduce_scatter);
  EXPECT_EQ(end[0].deps, std::vector<int>{7});
  EXPECT_DOUBLE_EQ(end[0].comm->bytes.value, gradients);
  EXPECT_EQ(end[1].comm->kind, CommKind::dp_all_gather);
  EXPECT_EQ(end[1].deps, (std::vector<int>{7, 1000}));
  EXPECT_DOUBLE_EQ(end[1].comm->bytes.value, gradients);
  EXPECT_EQ(end[2].piece.kind, PieceKind::optimizer);
  EXPECT_EQ(end[2].deps, (std::vector<int>{7, 9, 1001}));
  // The rank's program reduces nothing during its backward then.
  for (const StepTask& t : build_rank_program(p.plan(), 2).tasks) {
    EXPECT_FALSE(t.comm && t.comm->kind == CommKind::dp_reduce_scatter);
  }
}

}  // namespace
}  // namespace codesim::workload
