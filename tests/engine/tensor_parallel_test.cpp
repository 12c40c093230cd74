// Tensor parallelism with and without sequence parallelism, and context parallelism: the
// collectives each layer issues, their volumes (Korthikanti et al. 2022), and the split of
// weights and activations.
#include <gtest/gtest.h>

#include <map>

#include "models/hardware/catalog.hpp"
#include "models/llm/catalog.hpp"
#include "sim/metrics/step_metrics.hpp"
#include "sim/workload/step_program.hpp"
#include "tests/support/dense_step.hpp"

namespace codesim::engine {
namespace {

using namespace codesim::metrics;  // what these tests exercise beside the engine

using workload::CommKind;

const llm::LlmSpec& llama70b() {
  return testing::preset_model("llama3.1-70b");
}

workload::StepSpec tp_step(int tp, bool sp) {
  auto s = testing::dense_step("llama3.1-70b", 4);
  s.shape.dp = 2;
  s.shape.tp = tp;
  s.shape.sequence_parallel = sp;
  return s;
}

// Rank 0's TP collectives: count and bytes per kind.
std::map<CommKind, std::pair<int, double>> tp_traffic(const workload::StepProgram& p) {
  std::map<CommKind, std::pair<int, double>> out;
  for (const auto& t : p.tasks) {
    if (t.rank == 0 && t.comm &&
        (t.comm->kind == CommKind::tp_all_gather || t.comm->kind == CommKind::tp_reduce_scatter ||
         t.comm->kind == CommKind::tp_all_reduce)) {
      ++out[t.comm->kind].first;
      out[t.comm->kind].second += t.comm->bytes.value;
    }
  }
  return out;
}

TEST(TensorParallel, EachLayerGathersAndScattersItsActivationsTwicePerPass) {
  // Sequence parallelism: per layer and pass (F, B) an all-gather before and a reduce-scatter
  // after attention and after the FFN, each of the micro-batch's s x h BF16 activations
  // (8192 x 8192 x 2 B). Rank 0's L layers, 4 micro-batches: 2 x 2 x L x 4 of each kind. Rank 0
  // also holds the vocabulary-parallel embedding: per micro-batch a reduce-scatter of its
  // looked-up rows (F) and an all-gather of their gradient before the table's (W): 4 more of
  // each. Without sequence parallelism: one all-reduce after each region and after the lookup
  // instead (the gradient needs no gather).
  const auto sp = workload::build_step_program(tp_step(8, true));
  const double layers = sp.placement.front().layers();
  const double activation = 8192.0 * 8192 * 2;
  const auto t = tp_traffic(sp);
  EXPECT_EQ(t.at(CommKind::tp_all_gather).first, 2 * 2 * layers * 4 + 4);
  EXPECT_EQ(t.at(CommKind::tp_reduce_scatter).first, 2 * 2 * layers * 4 + 4);
  EXPECT_DOUBLE_EQ(t.at(CommKind::tp_all_gather).second, (2 * 2 * layers * 4 + 4) * activation);
  EXPECT_EQ(t.count(CommKind::tp_all_reduce), 0u);
  const auto plain = tp_traffic(workload::build_step_program(tp_step(8, false)));
  EXPECT_EQ(plain.at(CommKind::tp_all_reduce).first, 2 * 2 * layers * 4 + 4);
  EXPECT_EQ(plain.count(CommKind::tp_all_gather), 0u);
  EXPECT_TRUE(tp_traffic(workload::build_step_program(tp_step(1, true))).empty());
}

TEST(TensorParallel, TheVocabularyParallelHeadGathersItsInput) {
  // The last stage (rank 3) adds, per micro-batch, an all-gather before the head's forward and
  // one before its backward, and a reduce-scatter of its input gradient: 2 x 2 x L x 4 + 2 x 4
  // all-gathers and 2 x 2 x L x 4 + 4 reduce-scatters.
  const auto p = workload::build_step_program(tp_step(8, true));
  const double layers = p.placement.back().layers();
  std::map<CommKind, int> n;
  for (const auto& t : p.tasks) {
    if (t.rank == 3 && t.comm) {
      ++n[t.comm->kind];
    }
  }
  EXPECT_EQ(n[CommKind::tp_all_gather], 2 * 2 * layers * 4 + 2 * 4);
  EXPECT_EQ(n[CommKind::tp_reduce_scatter], 2 * 2 * layers * 4 + 4);
}

TEST(TensorParallel, MoeLayersSplitAttentionAndSharedExpertsNotRoutedOnes) {
  // DeepSeek-V2-Lite, TP 2, EP 8: with shared experts every layer's attention and FFN are split
  // (2 x 2 all-gathers per layer and pass); without them a MoE layer's FFN is only routed
  // experts, which expert parallelism spreads: one all-gather per MoE layer and pass. The
  // embedding's table gradient gathers its rows' gradient once per micro-batch (4).
  auto spec = testing::dense_step("deepseek-v2-lite", 4);
  spec.shape.tp = 2;
  spec.shape.ep = 8;
  spec.shape.dp = 8;
  llm::LlmSpec routed_only = testing::preset_model("deepseek-v2-lite");
  routed_only.moe->shared_experts = 0;
  auto gathers = [](const workload::StepProgram& p) {
    int n = 0;
    for (const auto& t : p.tasks) {
      n += t.rank == 0 && t.comm && t.comm->kind == CommKind::tp_all_gather ? 1 : 0;
    }
    return n;
  };
  const auto with_shared = workload::build_step_program(spec);
  const auto& stage = with_shared.placement.front();
  int moe_layers = 0;
  for (int l = stage.first_layer; l <= stage.last_layer; ++l) {
    moe_layers += routed_only.is_moe_layer(l) ? 1 : 0;
  }
  EXPECT_GT(moe_layers, 0);
  EXPECT_EQ(gathers(with_shared), 2 * 2 * stage.layers() * 4 + 4);
  spec.model = &routed_only;
  const auto without = workload::build_step_program(spec);
  ASSERT_EQ(without.placement.front().layers(), stage.layers());
  EXPECT_EQ(gathers(without), (2 * 2 * (stage.layers() - moe_layers) + 2 * moe_layers) * 4 + 4);
}

TEST(ContextParallel, EachLayerGathersTheSequencesKeysAndValues) {
  // CP 2 with TP 8: before each attention forward the whole sequence's keys and values, 8192
  // tokens x 8 KV heads x (128 + 128) channels / 8 (this GPU's heads) x 2 B, are all-gathered over
  // the CP group; after each attention backward their gradients, the same bytes, are
  // reduce-scattered. Rank 0's L layers, 4 micro-batches: L x 4 of each.
  auto spec = tp_step(8, true);
  spec.shape.cp = 2;
  const auto p = workload::build_step_program(spec);
  const double layers = p.placement.front().layers();
  const double kv = 8192.0 * 8 * 256 / 8 * 2;
  std::map<CommKind, std::pair<int, double>> cp;
  for (const auto& t : p.tasks) {
    if (t.rank == 0 && t.comm &&
        (t.comm->kind == CommKind::cp_all_gather || t.comm->kind == CommKind::cp_reduce_scatter)) {
      ++cp[t.comm->kind].first;
      cp[t.comm->kind].second += t.comm->bytes.value;
    }
  }
  EXPECT_EQ(cp.at(CommKind::cp_all_gather).first, layers * 4);
  EXPECT_EQ(cp.at(CommKind::cp_reduce_scatter).first, layers * 4);
  EXPECT_DOUBLE_EQ(cp.at(CommKind::cp_all_gather).second, layers * 4 * kv);
  EXPECT_DOUBLE_EQ(cp.at(CommKind::cp_reduce_scatter).second, layers * 4 * kv);
  // Each GPU computes half the tokens: its TP activations halve too.
  const auto tp_half = tp_traffic(p).at(CommKind::tp_all_gather).second;
  const auto tp_whole =
      tp_traffic(workload::build_step_program(tp_step(8, true))).at(CommKind::tp_all_gather).second;
  EXPECT_NEAR(tp_half / tp_whole, 0.5, 1e-9);
}

TEST(TensorParallel, WeightsAndActivationsAreSplit) {
  // TP 8 holds an eighth of every projection, FFN and embedding weight (norms are replicated, so
  // slightly more than an eighth overall); with sequence parallelism an eighth of the
  // activations. Without it the residual stream, the norms' inputs and outputs (4 x 8192 x 2 B
  // per token) and their 1/rms (2 x 4 B) stay whole; the heads' and FFN columns' tensors split:
  // q, O (2 x 8192), k and v (2 x 8 x 128) and SwiGLU's input and output (3 x 28672) x 2 B and
  // the log-sum-exp (64 x 4 B).
  const auto one = workload::build_step_program(tp_step(1, true));
  const auto eight = workload::build_step_program(tp_step(8, true));
  double all_one = 0;
  double all_eight = 0;
  for (std::size_t st = 0; st < one.stage_dense_params.size(); ++st) {
    all_one += one.stage_dense_params[st];
    all_eight += eight.stage_dense_params[st];
  }
  const double ratio = all_eight / all_one;
  EXPECT_GT(ratio, 1.0 / 8);
  EXPECT_LT(ratio, 1.0 / 8 * 1.01);
  StepFacts f{.model = &llama70b(),
              .gpu = hardware::find_preset("h100")->gpu,
              .shape = {.pp = 4, .dp = 2, .seq_len = 8192, .micro_batches = 4}};
  const auto whole = memory_use(one, f).activations.value;
  f.shape.tp = 8;
  const auto with_sp = memory_use(one, f).activations.value;
  f.shape.sequence_parallel = false;
  const auto without_sp = memory_use(one, f).activations.value;
  EXPECT_NEAR(with_sp, whole / 8, 1);
  const double sequence = 4 * 8192 * 2.0 + 2 * 4;
  const double columns = (2 * 8192 + 2 * 8 * 128 + 3 * 28672) * 2.0 + 64 * 4;
  EXPECT_NEAR(without_sp / whole, (sequence + columns / 8) / (sequence + columns), 1e-9);
}

}  // namespace
}  // namespace codesim::engine
