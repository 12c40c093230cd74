// The step shapes the studies derive from a scenario: one convention for per-GPU tokens, training
// and inference alike.
#include "sim/study/step_shape.hpp"

#include <gtest/gtest.h>

#include "sim/config/loader.hpp"

namespace codesim::study {
namespace {

const std::string kDir = CODESIM_SOURCE_DIR "/scenarios/";

std::string error_of(const std::string& yaml) {
  try {
    config::load_scenario_text(yaml, "s.yaml");
  } catch (const core::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(StepShapes, DecodeIsOneTokenOfEachRequest) {
  // 320 GPUs in TP groups of 4 (80 groups), 64 requests per GPU in 2 micro-batches: a group's
  // micro-batch is 64 x 4 / 2 = 128 requests of one token; a GPU computes and dispatches 32.
  const config::Scenario s = config::load_scenario(kDir + "deepseek-v3-decode-h800.yaml");
  const workload::StepShape sh = inference_shape(s);
  EXPECT_EQ(sh.gpus(), s.gpus());
  EXPECT_EQ(sh.dp, s.gpus() / 4);
  EXPECT_EQ(sh.seq_len, 1);
  EXPECT_EQ(sh.sequences_per_micro_batch, s.inference.requests_per_gpu * 4 / 2);
  EXPECT_EQ(sh.tokens_per_gpu(), s.inference.requests_per_gpu / 2);
}

TEST(StepShapes, PrefillIsWholePrompts) {
  // 8192 prompt tokens per GPU, TP 4, 2 micro-batches: a group's micro-batch is 8192 x 4 / 2 =
  // 16384 tokens, 4 prompts of 4096; a GPU computes 4096.
  const workload::StepShape sh =
      inference_shape(config::load_scenario(kDir + "deepseek-v3-prefill-h800.yaml"));
  EXPECT_EQ(sh.sequences_per_micro_batch, 4);
  EXPECT_EQ(sh.tokens_per_gpu(), 4096);
  EXPECT_EQ(sh.micro_batches, 2);
  EXPECT_EQ(error_of("model: {preset: deepseek-v3}\nhardware: {nodes: 4}\ntopology: {family: ft2}\n"
                     "parallelism: {pp: 1, tp: 4, ep: 32}\n"
                     "workload: {kind: prefill, seq_len: 4096}\n"
                     "inference: {micro_batches: 2, prompt_tokens_per_gpu: 5120}\n"),
            "s.yaml:6:54: error: inference.prompt_tokens_per_gpu: a TP group's micro-batch "
            "(prompt_tokens_per_gpu x tp / micro_batches = 10240 tokens) must be whole prompts of "
            "seq_len 4096");
}

TEST(StepShapes, TrainingSplitsTheGlobalBatch) {
  // DeepSeek-V3: 15360 sequences over dp 128 in micro-batches of 1: 120 micro-batches; a GPU
  // (no TP) computes one 4096-token sequence per micro-batch.
  const workload::StepShape sh =
      training_shape(config::load_scenario(kDir + "deepseek-v3-h800-mpft.yaml"));
  EXPECT_EQ(sh.micro_batches, 15360 / 128);
  EXPECT_EQ(sh.tokens_per_gpu(), 4096);
  EXPECT_EQ(sh.gpus(), 2048);
}

}  // namespace
}  // namespace codesim::study
