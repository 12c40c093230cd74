// A prefill or decode step's throughput and what fits, from plain values.
#include "sim/metrics/inference_figures.hpp"

#include <gtest/gtest.h>

namespace codesim::metrics {
namespace {

using core::Bytes;
using core::Seconds;

TEST(InferenceFigures, DecodeWithMtpEmitsTheAcceptedDraftToo) {
  // A 50 ms step of 64 requests per GPU, 8 GPUs a node, MTP accepted 0.8 of the time: 1.8
  // tokens per request and step, TPOT 50 / 1.8 = 27.78 ms; 64 / 0.02778 = 2,304 tokens/s per
  // GPU, 18,432 per node; KV cache 64 x 1 MB.
  InferenceResult r{
      .phase = InferencePhase::decode, .gpus_per_node = 8, .step_time = Seconds(0.05)};
  add_throughput({.requests_per_gpu = 64, .context_len = 4096, .mtp = true, .mtp_acceptance = 0.8},
                 Bytes(1e6), r);
  EXPECT_DOUBLE_EQ(r.tpot.value, 0.05 / 1.8);
  EXPECT_DOUBLE_EQ(r.tpot_without_mtp.value, 0.05);
  EXPECT_NEAR(r.tokens_per_s_per_gpu, 2304, 1e-9);
  EXPECT_NEAR(r.tokens_per_s_per_node, 18432, 1e-9);
  EXPECT_DOUBLE_EQ(r.kv_cache_per_gpu.value, 64e6);
  ASSERT_EQ(r.notes.size(), 1U);
  EXPECT_EQ(r.notes[0].text, "MTP: 1.80 tokens per request and step (acceptance 0.80)");
}

TEST(InferenceFigures, PrefillCountsPromptTokensAndTheirCache) {
  // 16,384 prompt tokens per GPU in a 2 s step: TTFT 2 s, 8,192 tokens/s per GPU; a request of
  // 4,096 tokens holds 4 MB, so 16,384 tokens hold 16 MB.
  InferenceResult r{.phase = InferencePhase::prefill, .gpus_per_node = 8, .step_time = Seconds(2)};
  add_throughput({.prompt_tokens_per_gpu = 16384, .context_len = 4096}, Bytes(4e6), r);
  EXPECT_DOUBLE_EQ(r.ttft.value, 2);
  EXPECT_DOUBLE_EQ(r.tokens_per_s_per_gpu, 8192);
  EXPECT_DOUBLE_EQ(r.kv_cache_per_gpu.value, 16e6);
}

TEST(InferenceFigures, TheLargestBatchIsWhatTheFreeHbmHolds) {
  // 80 GB of HBM less 60 GB of weights, 1 GB of framework and 1 GB of EP buffers: 18 GB free.
  // 100 requests hold 10 GB of KV cache and 10 GB of activations: 0.2 GB each, 90 fit; the 100
  // need 82 GB, more than 80: said.
  InferenceResult r{.phase = InferencePhase::decode};
  r.hbm = Bytes(80e9);
  r.weights_per_gpu = Bytes(60e9);
  r.framework = Bytes(1e9);
  r.ep_buffers = Bytes(1e9);
  r.kv_cache_per_gpu = Bytes(10e9);
  add_memory_figures(Bytes(10e9), "the MoE's up projection", 100, r);
  EXPECT_EQ(r.largest_batch, 90);
  EXPECT_EQ(r.activations_peak, "the MoE's up projection");
  ASSERT_EQ(r.notes.size(), 1U);
  EXPECT_EQ(r.notes[0].text,
            "weights, KV cache, activations and the framework need 82.0 GB per GPU, more than "
            "its 80 GB: at most 90 requests per GPU fit");
}

}  // namespace
}  // namespace codesim::metrics
