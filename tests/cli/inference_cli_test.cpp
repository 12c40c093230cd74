// `codesim run` on prefill and decode scenarios: the ISCA bound scenarios as published, MTP,
// bandwidth monotonicity and KV-cache memory of the full model.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

namespace codesim::testing {
namespace {

using nlohmann::json;

json run_json(const std::string& args) {
  const auto r = run_codesim("run " + args + " --format json");
  EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
  return r.exit_code == 0 ? json::parse(r.out) : json::object();
}

// A decode deployment small enough for many runs: EP64 over 8 H800 nodes, low-latency dispatch.
const std::string kSmallDecode =
    "scenarios/deepseek-v3-decode-h800.yaml --set hardware.nodes=8 --set parallelism.ep=64 "
    "--set inference.redundant_experts=0 --set routing.balance_steps=10";

TEST(InferenceCli, IscaBoundScenariosGiveThePublishedTpot) {
  const json ib = run_json("scenarios/deepseek-v3-decode-bound-ib.yaml");
  EXPECT_NEAR(ib["tpot_ms"].get<double>(), 14.76, 14.76 * 0.01);
  EXPECT_NEAR(
      ib["per_layer_us"]["dispatch"].get<double>() + ib["per_layer_us"]["combine"].get<double>(),
      120.96, 1e-6);
  EXPECT_NEAR(ib["tokens_per_s_per_request"].get<double>(), 67, 1);
  const json nvl = run_json("scenarios/deepseek-v3-decode-bound-nvl72.yaml");
  EXPECT_NEAR(nvl["tpot_ms"].get<double>(), 0.82, 0.82 * 0.01);
  EXPECT_NEAR(nvl["tokens_per_s_per_request"].get<double>(), 1200, 25);
}

TEST(InferenceCli, MtpWithAcceptanceZeroIsNoMtp) {
  const json with =
      run_json(kSmallDecode + " --set inference.mtp=true --set inference.mtp_acceptance=0");
  const json without = run_json(kSmallDecode + " --set inference.mtp=false");
  EXPECT_DOUBLE_EQ(with["tpot_ms"].get<double>(), without["tpot_ms"].get<double>());
  const json accepted = run_json(kSmallDecode + " --set inference.mtp=true");
  EXPECT_NEAR(accepted["tpot_ms"].get<double>() * 1.85, without["tpot_ms"].get<double>(), 1e-9);
}

TEST(InferenceCli, MoreInfiniBandNeverRaisesTpot) {
  double previous = 1e9;
  for (const char* nic : {"200Gbps", "400Gbps", "800Gbps", "1600Gbps"}) {
    const json j = run_json(kSmallDecode + " --set hardware.nic_bandwidth=" + nic);
    EXPECT_LE(j["tpot_ms"].get<double>(), previous) << nic;
    previous = j["tpot_ms"].get<double>();
  }
}

TEST(InferenceCli, KvCachePerGpuIsTheModelsPerTokenCacheTimesTokens) {
  // DeepSeek-V3 caches (512 + 64) BF16 per token and layer: 576 x 2 B x 61 layers = 70272 B
  // per token (`codesim model`). 64 requests x 4096 tokens on each GPU: 18.42 GB.
  const json model = json::parse(run_codesim("model deepseek-v3 --format json").out);
  const double per_token = model["kv_cache_bytes_per_token"].get<double>();
  EXPECT_DOUBLE_EQ(per_token, 70272);
  const json j = run_json(kSmallDecode);
  EXPECT_DOUBLE_EQ(j["memory_gb_per_gpu"]["kv_cache"].get<double>(), per_token * 64 * 4096 / 1e9);
}

TEST(InferenceCli, BadInferenceScenariosFailWithExactMessages) {
  const auto r = run_codesim(
      "run scenarios/deepseek-v3-decode-h800.yaml --set parallelism.pp=64 --set parallelism.tp=1 "
      "--set parallelism.ep=5");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "--set parallelism.pp=64: error: parallelism.pp: pp = 64 exceeds the model's 61 "
            "layers\n");
  const auto bound =
      run_codesim("run scenarios/deepseek-v3-prefill-h800.yaml --set inference.mode=bound");
  EXPECT_EQ(bound.exit_code, 2);
  EXPECT_EQ(bound.err,
            "--set inference.mode=bound: error: inference.mode: bound mode is the decode bound "
            "(ISCA 2.3.2)\n"
            "  hint: use mode: model for prefill\n");
}

TEST(InferenceCli, APlatformOverTheMemoryBudgetIsRefusedBeforeItIsBuilt) {
  // 40 nodes: 320 GPUs, 320 NICs, 24 switches (8 planes of 2 leaves and 1 spine), 40 NVSwitches;
  // 1472 links: 704 x 1 KB + 1472 x 2.25 KB = 4.0 MB (Platform::estimated_memory).
  const auto r = run_codesim("run scenarios/deepseek-v3-decode-h800.yaml --max-memory-mb 1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "scenarios/deepseek-v3-decode-h800.yaml:13:10: error: hardware.nodes: the simulated "
            "platform would need about 4.0 MB for its 704 GPUs, NICs and switches and 1472 links, "
            "over the budget of 1.0 MB\n"
            "  hint: fewer nodes, or raise --max-memory-mb\n");
}

}  // namespace
}  // namespace codesim::testing
