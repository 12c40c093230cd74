// ZeRO stages: what each shards (memory) and what ZeRO-3 moves per layer (communication).
#include <gtest/gtest.h>

#include "models/hardware/catalog.hpp"
#include "models/llm/catalog.hpp"
#include "models/llm/layer_ops.hpp"
#include "sim/metrics/step_metrics.hpp"
#include "sim/workload/step_program.hpp"
#include "tests/support/dense_step.hpp"

namespace codesim::engine {
namespace {

using namespace codesim::metrics;  // what these tests exercise beside the engine

using workload::CommKind;

const llm::LlmSpec& llama() {
  return testing::preset_model("llama3.1-8b");
}

workload::StepSpec zero_step(int zero) {
  auto s = testing::dense_step("llama3.1-8b", 8);
  s.shape.dp = 8;
  s.shape.zero = zero;
  return s;
}

// Bytes rank 0 moves in data-parallel collectives of `kind`.
double dp_bytes(const workload::StepProgram& p, CommKind kind) {
  double bytes = 0;
  for (const auto& t : p.tasks) {
    if (t.rank == 0 && t.comm && t.comm->kind == kind) {
      bytes += t.comm->bytes.value;
    }
  }
  return bytes;
}

// Parameters of rank 0's layers (stage 0 of a 1F1B pipeline) and of its embedding.
struct StageParams {
  double layers = 0;
  double embedding = 0;
};
StageParams first_stage_params(const workload::StepProgram& p) {
  StageParams sp;
  const auto& stage = p.placement.front();
  const llm::OpShape shape{.seq_len = 8192, .micro_batch = 1};
  for (int l = stage.first_layer; l <= stage.last_layer; ++l) {
    for (const auto& op : llm::layer_ops(llama(), l, shape)) {
      sp.layers += op.params;
    }
  }
  for (const auto& block : llm::model_blocks(llama(), shape)) {
    if (block.kind == llm::BlockKind::embedding) {
      for (const auto& op : block.ops) {
        sp.embedding += op.params;
      }
    }
  }
  return sp;
}

TEST(Zero, StageThreeGathersEachLayerTwiceAndScattersItsGradientsOnce) {
  // Rank 0's layers L with P parameters, its embedding E, 8 micro-batches: ZeRO-3 all-gathers
  // 8 x (2 P + E) x 2 B (BF16: layers before each forward and each backward, the embedding
  // before each forward; its backward needs no parameters) and reduce-scatters 8 x (P + E) x 4 B
  // (FP32 gradients after each backward).
  const auto three = workload::build_step_program(zero_step(3));
  const StageParams sp = first_stage_params(three);
  EXPECT_NEAR(dp_bytes(three, CommKind::dp_all_gather), 8 * (2 * sp.layers + sp.embedding) * 2, 1);
  EXPECT_NEAR(dp_bytes(three, CommKind::dp_reduce_scatter), 8 * (sp.layers + sp.embedding) * 4, 1);
}

TEST(Zero, StagesOneAndTwoReduceTheGradientsOncePerStepOrOncePerMicroBatch) {
  // ZeRO-1 accumulates the gradients over the 8 micro-batches and reduce-scatters the stage's
  // P_stage x 4 B once; ZeRO-2 keeps only its shard, so each backward reduce-scatters them: 8 x
  // P_stage x 4 B. Both all-gather the updated BF16 parameters once: P_stage x 2 B.
  for (int zero : {1, 2}) {
    const auto p = workload::build_step_program(zero_step(zero));
    const double stage = p.stage_dense_params[0];
    EXPECT_NEAR(dp_bytes(p, CommKind::dp_reduce_scatter), (zero == 1 ? 1 : 8) * stage * 4, 1);
    EXPECT_NEAR(dp_bytes(p, CommKind::dp_all_gather), stage * 2, 1);
  }
}

TEST(Zero, GradientBucketsLeaveDuringTheLastBackward) {
  // ZeRO-1: the last backward chunk runs rank 0's layers from the last; each layer's bucket waits
  // for that layer's weight part only, so every layer's bucket starts before the rank's
  // computation ends (the embedding table's gradient is its last), on their own stream; the
  // embedding's bucket waits for that gradient.
  const auto p = workload::build_step_program(zero_step(1));
  int last_compute = -1;
  for (const auto& t : p.tasks) {
    if (t.rank == 0 && t.stream == workload::StepStream::compute && t.chunk >= 0) {
      last_compute = t.id;
    }
  }
  int early = 0;
  int buckets = 0;
  for (const auto& t : p.tasks) {
    if (t.rank == 0 && t.comm && t.comm->kind == CommKind::dp_reduce_scatter) {
      EXPECT_EQ(t.stream, workload::StepStream::data_parallel);
      ++buckets;
      early += t.deps.at(0) < last_compute ? 1 : 0;
    }
  }
  const auto& stage = p.placement.front();
  EXPECT_EQ(buckets, stage.layers() + 1);
  EXPECT_EQ(early, stage.layers());
}

TEST(Zero, EachStageShardsOneMoreState) {
  // Dense model, dp 8: ZeRO-1 shards the optimizer state (FP32 master and two BF16 moments, 8 B
  // per parameter, / 8), ZeRO-2 the FP32 gradients too (4 B / 8), ZeRO-3 the BF16 parameters
  // too (2 B / 8).
  StepFacts f{.model = &llama(),
              .gpu = hardware::find_preset("h100")->gpu,
              .shape = {.pp = 4, .dp = 8, .seq_len = 8192, .micro_batches = 8}};
  const auto p = workload::build_step_program(zero_step(1));
  const double params = p.stage_dense_params[0];
  for (int zero : {1, 2, 3}) {
    f.shape.zero = zero;
    const auto m = memory_use(p, f);
    EXPECT_NEAR(m.optimizer.value, params / 8 * 8, 1);
    EXPECT_NEAR(m.gradients.value, params * 4 / (zero >= 2 ? 8 : 1), 1);
    EXPECT_NEAR(m.parameters.value, params * 2 / (zero >= 3 ? 8 : 1), 1);
  }
}

}  // namespace
}  // namespace codesim::engine
