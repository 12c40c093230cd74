// simulate_inference called as a library (no subprocess); one simulation per test (SimGrid
// allows one engine per process).
#include "sim/study/inference.hpp"

#include <gtest/gtest.h>

#include "sim/config/loader.hpp"

namespace codesim::study {
namespace {

const std::string kDecode = CODESIM_SOURCE_DIR "/scenarios/deepseek-v3-decode-h800.yaml";

TEST(SimulateInference, DecodeTpotIsTheStepOverTheTokensMtpEmits) {
  const config::Scenario s =
      config::load_scenario(kDecode, {config::parse_setting("hardware.nodes=8"),
                                      config::parse_setting("parallelism.ep=64"),
                                      config::parse_setting("inference.redundant_experts=0"),
                                      config::parse_setting("routing.balance_steps=10")});
  const metrics::InferenceResult r = simulate_inference(s);
  // MTP at acceptance a emits 1 + a tokens per request and step.
  EXPECT_NEAR(r.tpot.value, r.step_time.value / (1 + s.inference.mtp_acceptance), 1e-12);
  // Output tokens per GPU: requests per GPU / TPOT; per node x 8 GPUs.
  EXPECT_NEAR(r.tokens_per_s_per_gpu, s.inference.requests_per_gpu / r.tpot.value, 1e-6);
  EXPECT_NEAR(r.tokens_per_s_per_node, 8 * r.tokens_per_s_per_gpu, 1e-6);
  // The dispatch and combine were simulated: they take time.
  EXPECT_GT(r.dispatch.value, 0);
  EXPECT_GT(r.combine.value, 0);
}

TEST(SimulateInference, TheIscaBoundIsItsClosedForm) {
  const metrics::InferenceResult r = simulate_inference(
      config::load_scenario(CODESIM_SOURCE_DIR "/scenarios/deepseek-v3-decode-bound-ib.yaml"));
  // (1 B + 2 B) x 32 tokens x 9 experts x 7000 channels / 50 GB/s x 2 micro-batches x 61 layers.
  EXPECT_NEAR(r.tpot_without_mtp.value, 3.0 * 32 * 9 * 7000 / 50e9 * 2 * 61, 1e-12);
  ASSERT_FALSE(r.notes.empty());
  EXPECT_EQ(r.notes.front().kind, core::NoteKind::method);
}

TEST(SimulateInference, PipelineStagesPassEachTokenInTurn) {
  // Llama 3.1 8B's 32 layers on 2 stages of one GPU each: a token passes both, so TPOT is twice
  // the slower stage (16 layers and the head) plus one hop, above the single GPU's 32 layers and
  // one head; each GPU holds half the weights and the same KV cache (its layers of twice the
  // requests).
  const std::string llama = CODESIM_SOURCE_DIR "/scenarios/llama3.1-8b-decode-h200.yaml";
  const auto one = simulate_inference(config::load_scenario(llama));
  const auto two = simulate_inference(
      config::load_scenario(llama, {config::parse_setting("hardware.gpus_per_node=2"),
                                    config::parse_setting("parallelism.pp=2")}));
  EXPECT_EQ(two.pp, 2);
  EXPECT_GT(two.step_time.value, one.step_time.value);
  EXPECT_LT(two.step_time.value, one.step_time.value * 1.1);
  EXPECT_NEAR(two.weights_per_gpu.value, one.weights_per_gpu.value / 2, 1);
  EXPECT_DOUBLE_EQ(two.kv_cache_per_gpu.value, one.kv_cache_per_gpu.value);
  EXPECT_NEAR(two.tokens_per_s_per_gpu, 64 / two.tpot.value, 1e-9);
}

TEST(SimulateInference, TheHopBetweenStagesTakesTheTopologysPath) {
  // The same two stages within a node (NVLink: its latency, its bandwidth) and on two nodes (the
  // first GPUs of two nodes share a leaf: PCIe, the NIC and one switch, 2.8 us end to end, at the
  // slower of PCIe and the NIC): the steps differ by the two hops' difference, each carrying a
  // micro-batch's activations (64 requests x 4096 x 2 B per micro-batch; one hop for pp 2).
  const std::string llama = CODESIM_SOURCE_DIR "/scenarios/llama3.1-8b-decode-h200.yaml";
  const auto inside =
      config::load_scenario(llama, {config::parse_setting("hardware.gpus_per_node=2"),
                                    config::parse_setting("parallelism.pp=2")});
  const auto across = config::load_scenario(
      llama,
      {config::parse_setting("hardware.gpus_per_node=1"), config::parse_setting("hardware.nodes=2"),
       config::parse_setting("topology.family=ft2"), config::parse_setting("parallelism.pp=2")});
  const auto& hw = across.hardware.spec;
  const double bytes = 64.0 * inside.inference.micro_batches * 4096 * 2;
  const double nvlink = hw.scale_up.latency.value + bytes / hw.scale_up.bandwidth.value;
  const double network = hw.nic.latency_same_leaf.value +
                         bytes / std::min(hw.nic.bandwidth.value, hw.pcie_bandwidth.value);
  const auto a = simulate_inference(inside);
  const auto b = simulate_inference(across);
  EXPECT_NEAR(b.step_time.value - a.step_time.value, network - nvlink, 1e-12);
}

TEST(SimulateInference, TheLargestBatchIsWhatFitsBesideTheWeights) {
  // Llama 3.1 8B at 4K context: a request's KV cache is 32 layers x 2 x 8 heads x 128 x 2 B x
  // 4096 = 536,870,912 B; its activations at the peak (the head) 272,896 B; the batch that fits
  // is the H200's 141 GB less the weights and the framework's 701 MiB, over their sum.
  const auto r = simulate_inference(
      config::load_scenario(CODESIM_SOURCE_DIR "/scenarios/llama3.1-8b-decode-h200.yaml"));
  EXPECT_DOUBLE_EQ(r.kv_cache_per_gpu.value, 64 * 536870912.0);
  EXPECT_DOUBLE_EQ(r.activations_per_gpu.value, 64 * 272896.0);
  EXPECT_EQ(r.activations_peak, "output head");
  EXPECT_EQ(r.largest_batch,
            static_cast<long long>((141e9 - r.weights_per_gpu.value - 701 * 1048576.0) /
                                   (536870912.0 + 272896)));
}

TEST(SimulateInference, APrefillAtThePowerCapRunsAtTheGovernedClock) {
  // Llama 3.1 8B prefill of 2 x 8192-token prompts on one H200: GEMM-bound, its board would draw
  // more than 700 W at 1980 MHz, so the governor lowers the clock and the step takes longer than
  // with no limit in reach; a 400 W limit longer still. The energy's parts add up to the step's,
  // its GPU power stays within the limit, and the energy per token is the step's over its
  // 16384 prompt tokens.
  const std::string llama = CODESIM_SOURCE_DIR "/scenarios/llama3.1-8b-decode-h200.yaml";
  auto prefill = [&](const std::string& limit) {
    return simulate_inference(config::load_scenario(
        llama, {config::parse_setting("workload.kind=prefill"),
                config::parse_setting("workload.seq_len=8192"),
                config::parse_setting("inference.prompt_tokens_per_gpu=16384"),
                config::parse_setting("hardware.power_limit=" + limit)}));
  };
  const auto free = prefill("5000");
  const auto capped = prefill("700");
  const auto low = prefill("400");
  ASSERT_TRUE(free.energy && capped.energy && low.energy);
  EXPECT_FALSE(free.energy->power_bound);
  EXPECT_DOUBLE_EQ(free.energy->min_clock_mhz, 1980);
  EXPECT_TRUE(capped.energy->power_bound);
  EXPECT_LT(capped.energy->max_clock_mhz, 1980);
  EXPECT_GT(capped.step_time.value, free.step_time.value);
  EXPECT_GT(low.step_time.value, capped.step_time.value);
  EXPECT_LE(capped.energy->gpu_power_w, 700 + 1e-6);
  EXPECT_LE(low.energy->gpu_power_w, 400 + 1e-6);
  const metrics::StepEnergy& e = *capped.energy;
  EXPECT_NEAR(e.per_token_j, e.total_j() / 16384, 1e-9);
  EXPECT_DOUBLE_EQ(e.total_j(), e.gpu_compute_j + e.gpu_waiting_j + e.network_j + e.host_j);
}

TEST(StepTimeAt, TheServingLoopsStepsRunUnderTheGovernor) {
  // A serving step priced at the scenario's own load is the inference study's step, governor
  // included: a 2 x 8192-token prefill chunk at the 700 W cap takes longer than the same chunk
  // with no limit in reach (measured on the H200: such a prefill settles at 1,545 MHz,
  // docs/model/power.md).
  const std::string llama = CODESIM_SOURCE_DIR "/scenarios/llama3.1-8b-decode-h200.yaml";
  auto scenario = [&](const std::string& limit) {
    return config::load_scenario(llama,
                                 {config::parse_setting("workload.kind=prefill"),
                                  config::parse_setting("workload.seq_len=8192"),
                                  config::parse_setting("inference.prompt_tokens_per_gpu=16384"),
                                  config::parse_setting("hardware.power_limit=" + limit)});
  };
  const auto capped = scenario("700");
  const StepLoad chunk{.tokens = 16384, .context = 8192};
  EXPECT_DOUBLE_EQ(step_time_at(capped, chunk).value, simulate_inference(capped).step_time.value);
  EXPECT_GT(step_time_at(capped, chunk).value, step_time_at(scenario("5000"), chunk).value);
}

}  // namespace
}  // namespace codesim::study
