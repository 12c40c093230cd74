// ZeRO stages: what each shards (memory) and what ZeRO-3 moves per layer (communication).
#include <gtest/gtest.h>

#include "models/hardware/catalog.hpp"
#include "models/llm/catalog.hpp"
#include "models/llm/layer_ops.hpp"
#include "sim/engine/step_metrics.hpp"
#include "sim/workload/step_program.hpp"
#include "tests/support/dense_step.hpp"

namespace codesim::engine {
namespace {

using workload::CommKind;

const llm::LlmSpec& llama() {
  return testing::preset_model("llama3.1-8b");
}

workload::StepSpec zero_step(int zero) {
  auto s = testing::dense_step("llama3.1-8b", 8);
  s.dp = 8;
  s.zero = zero;
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

TEST(Zero, StageThreeGathersEachLayerTwiceAndScattersItsGradientsOnce) {
  // Rank 0's layers L with P parameters each, 8 micro-batches: ZeRO-3 all-gathers 2 x 8 x P x
  // 2 B (BF16, before each forward and each backward) and reduce-scatters 8 x P x 4 B (FP32
  // gradients) per layer; ZeRO-1 instead moves the stage once: P_stage x 4 B out, x 2 B back.
  const auto one = workload::build_step_program(zero_step(1));
  const auto three = workload::build_step_program(zero_step(3));
  const auto& stage = three.placement.front();
  double layers_params = 0;
  const llm::OpShape shape{.seq_len = 8192, .micro_batch = 1};
  for (int l = stage.first_layer; l <= stage.last_layer; ++l) {
    for (const auto& op : llm::layer_ops(llama(), l, shape)) {
      layers_params += op.params;
    }
  }
  EXPECT_NEAR(dp_bytes(three, CommKind::dp_all_gather), 2 * 8 * layers_params * 2, 1);
  EXPECT_NEAR(dp_bytes(three, CommKind::dp_reduce_scatter), 8 * layers_params * 4, 1);
  EXPECT_NEAR(dp_bytes(one, CommKind::dp_reduce_scatter), one.stage_dense_params[0] * 4, 1);
  EXPECT_NEAR(dp_bytes(one, CommKind::dp_all_gather), one.stage_dense_params[0] * 2, 1);
}

TEST(Zero, EachStageShardsOneMoreState) {
  // Dense model, dp 8: ZeRO-1 shards the optimizer state (FP32 master and two BF16 moments, 8 B
  // per parameter, / 8), ZeRO-2 the FP32 gradients too (4 B / 8), ZeRO-3 the BF16 parameters
  // too (2 B / 8).
  StepFacts f{.model = &llama(),
              .gpu = hardware::find_preset("h100")->gpu,
              .gpus = 32,
              .seq_len = 8192,
              .sequences_per_step = 64,
              .tokens_per_micro_batch = 8192,
              .dp = 8};
  const auto p = workload::build_step_program(zero_step(1));
  const double params = p.stage_dense_params[0];
  for (int zero : {1, 2, 3}) {
    f.zero = zero;
    const auto m = memory_use(p, f);
    EXPECT_NEAR(m.optimizer.value, params / 8 * 8, 1);
    EXPECT_NEAR(m.gradients.value, params * 4 / (zero >= 2 ? 8 : 1), 1);
    EXPECT_NEAR(m.parameters.value, params * 2 / (zero >= 3 ? 8 : 1), 1);
  }
}

}  // namespace
}  // namespace codesim::engine
