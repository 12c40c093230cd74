// `codesim serve`: the shipped example trace end to end (Little's law on what it reports), bad
// traces and requests located word for word, an SLO no load meets, every report format.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

namespace codesim::testing {
namespace {

using nlohmann::json;

const std::string kServe = "serve scenarios/llama3.1-8b-serve-h200.yaml";

TEST(ServeCli, TraceRunObeysLittlesLaw) {
  // Over the horizon from the first arrival to the last token, every request drained: mean
  // requests in flight = arrival rate x mean latency.
  const auto r = run_codesim("serve scenarios/llama3.1-8b-serve-trace-h200.yaml --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["requests"], 60);
  EXPECT_EQ(j["arrivals"], "trace examples/requests-small.csv");
  const double little =
      j["arrival_rate"].get<double>() * j["latency_ms"]["mean"].get<double>() / 1e3;
  EXPECT_NEAR(j["mean_in_flight"].get<double>(), little, 0.01 * little);
  // Tokens out per second: the requests' output over the horizon.
  EXPECT_GT(j["output_tokens_per_s"].get<double>(), 0);
  EXPECT_EQ(j["slo"]["verdict"], "met");
}

TEST(ServeCli, TheRunsEnergyIsItsStepsItsRestAndWhatServesThem) {
  // Over the horizon H: the GPUs at rest between steps = instances x GPUs each x (1 - busy) x H
  // x the idle power; the total is steps + rest + network + hosts, per output token over the
  // output (tokens/s x H); the mean GPU power is the GPUs' energy over GPUs x H.
  const auto r = run_codesim("serve scenarios/llama3.1-8b-serve-trace-h200.yaml --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  const json& e = j["energy"];
  const double horizon = j["horizon_s"].get<double>();
  double rest = 0;
  for (const char* role : {"prefill", "decode"}) {
    const json& inst = j[role];
    rest += inst["instances"].get<double>() * inst["gpus_each"].get<double>() *
            (1 - inst["busy"].get<double>()) * horizon * e["gpu_idle_w"].get<double>();
  }
  EXPECT_NEAR(e["gpu_idle_j"].get<double>(), rest, 1e-9 * rest);
  const double gpus = e["gpu_steps_j"].get<double>() + e["gpu_idle_j"].get<double>();
  const double total = gpus + e["network_j"].get<double>() + e["host_j"].get<double>();
  EXPECT_NEAR(e["total_j"].get<double>(), total, 1e-9 * total);
  EXPECT_NEAR(e["per_output_token_j"].get<double>(),
              total / (j["output_tokens_per_s"].get<double>() * horizon), 1e-9 * total);
  EXPECT_NEAR(e["mean_gpu_power_w"].get<double>(), gpus / (j["gpus"].get<double>() * horizon),
              1e-6);
  // The steps draw more than rest would over the same time.
  double busy = 0;
  for (const char* role : {"prefill", "decode"}) {
    const json& inst = j[role];
    busy += inst["instances"].get<double>() * inst["gpus_each"].get<double>() *
            inst["busy"].get<double>() * horizon;
  }
  EXPECT_GT(e["gpu_steps_j"].get<double>(), busy * e["gpu_idle_w"].get<double>());
}

TEST(ServeCli, ATraceGoingBackInTimeIsRefusedAtItsLine) {
  const auto r =
      run_codesim(kServe + " --set serve.arrivals.trace=tests/bad_input/trace_backwards.csv");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "tests/bad_input/trace_backwards.csv:3:1: error: timestamp_s: timestamps must not go "
            "back (0.25 s after 0.5 s)\n"
            "  hint: sort the trace by timestamp\n");
}

TEST(ServeCli, AnInstancesErrorNamesTheServeKeyWritten) {
  // The decode instance's parallelism comes from serve.decode: an impossible tp is blamed there,
  // not on a parallelism.pp the user never set, and not as a data-parallel degree of 0.
  const auto r = run_codesim(kServe + " --set serve.decode.tp=3");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "--set serve.decode.tp=3: error: serve.decode.tp: the decode instance's "
            "parallelism.tp: pp x tp x cp = 1 x 3 x 1 = 3 GPUs per data-parallel replica do not "
            "divide the GPU count, nodes x gpus_per_node = 1 x 1 = 1\n"
            "--set serve.decode.tp=3: error: serve.decode.tp: the decode instance's "
            "parallelism.tp: tp = 3 must divide the model's 32 attention heads\n");
}

TEST(ServeCli, APrefillChunkOverTheGpusMemoryIsRefused) {
  // Llama 3.1 8B, eager: 139,264 B of activations and 131,072 B of KV cache a token; 600,000
  // tokens need 83.6 + 78.6 GB beside 16.1 GB of weights and 0.7 of the framework, over the
  // H200's 141.
  const auto r = run_codesim(kServe + " --set serve.prefill.chunk_tokens_per_gpu=600000");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "--set serve.prefill.chunk_tokens_per_gpu=600000: error: "
            "serve.prefill.chunk_tokens_per_gpu: a prefill GPU's weights (16.1 GB), its chunk's "
            "83.6 GB of activations and 78.6 GB of KV cache do not fit its 141 GB with the "
            "framework's 0.7 GB\n"
            "  hint: smaller chunks (serve.prefill.chunk_tokens_per_gpu), or more GPUs per "
            "prefill instance\n");
}

TEST(ServeCli, ADecodeBatchWhoseActivationsLeaveNoKvCacheIsRefused) {
  // 500,000 requests x 272,896 B (each request's residual, final norm output and BF16 logits over
  // 128,256) = 136.4 GB.
  const auto r = run_codesim(kServe + " --set serve.decode.max_requests_per_gpu=500000");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "--set serve.decode.max_requests_per_gpu=500000: error: "
            "serve.decode.max_requests_per_gpu: a decode GPU's weights (16.1 GB), the 136.4 GB of "
            "activations of its batch of 500000 requests and the framework's 0.7 GB leave no room "
            "for KV cache in its 141 GB\n"
            "  hint: batch fewer requests\n");
}

TEST(ServeCli, ARequestLargerThanTheKvCacheIsRefused) {
  const auto r = run_codesim(kServe + " --set serve.arrivals.prompt_tokens=900000");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "--set serve.arrivals.prompt_tokens=900000: error: serve.arrivals.prompt_tokens: "
            "request 1 needs 900256 KV-cache tokens (prompt + output), more than a decode instance "
            "holds (852604)\n"
            "  hint: give the decode instances more GPUs (serve.decode.nodes) or shorten the "
            "request\n");
}

TEST(ServeCli, AScenarioWithoutAServeSectionIsRefused) {
  // Its instances, arrivals and targets would all be defaults nobody chose; one serve key given
  // on the command line is enough.
  const auto r = run_codesim("serve scenarios/llama3.1-8b-decode-h200.yaml");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "scenarios/llama3.1-8b-decode-h200.yaml: error: serve: the scenario has no serve: "
            "section\n"
            "  hint: add one, e.g. serve: {prefill: {instances: 1}, decode: {instances: 2}, "
            "arrivals: {rate: 6}} (scenarios/SCHEMA.md)\n");
  EXPECT_EQ(run_codesim("serve scenarios/llama3.1-8b-decode-h200.yaml --set serve.arrivals.rate=2")
                .exit_code,
            0);
}

TEST(ServeCli, ARunPastItsStepBudgetIsRefusedBeforeItStarts) {
  // 10,000 prompts of 2048 tokens in chunks of one: 20,480,000 prefill steps at the least, and
  // 10,000 x 255 output tokens in batches of at most 128 (one decode GPU): 19,922 decode steps.
  const std::string chunks = " --set serve.prefill.chunk_tokens_per_gpu=1";
  const auto r =
      run_codesim(kServe + chunks + " --set serve.arrivals.requests=10000 --max-steps 10000000");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "--set serve.prefill.chunk_tokens_per_gpu=1: error: "
            "serve.prefill.chunk_tokens_per_gpu: the serving run takes at least 20499922 "
            "steps (20480000 prefill: 20480000 prompt tokens in chunks of 1; 19922 decode: "
            "2550000 output tokens in batches of at most 128), over the budget of 10000000\n"
            "  hint: larger prefill chunks or fewer requests shorten it; or raise "
            "--max-steps\n");
}

TEST(ServeCli, ARunThatOutgrowsItsStepBudgetIsStoppedThere) {
  // Within the budget by the bound, but the decode batches run with one request each (requests
  // trickle out of a prefill of one token per step): 2,550,000 decode steps, not 19,922.
  const auto r = run_codesim(kServe +
                             " --set serve.prefill.chunk_tokens_per_gpu=1 --set "
                             "serve.arrivals.requests=10000 --max-steps 21000000");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("error: serve.decode.max_requests_per_gpu: the serving run passed the "
                       "budget of 21000000 steps (20499922 foreseen at the least: its decode "
                       "batches ran below their most)\n"
                       "  hint: fewer requests shorten it; or raise --max-steps\n"),
            std::string::npos)
      << r.err;
}

TEST(ServeCli, AnSloNoLoadMeetsIsUnmetAndSaysWhy) {
  const auto r = run_codesim(kServe +
                             " --set serve.arrivals.requests=50 --set serve.slo.ttft=10ms "
                             "--set serve.slo.tpot=1ms --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["slo"]["verdict"], "unmet");
  EXPECT_EQ(j["slo"]["goodput"], 0);
  int at_any_load = 0;
  for (const auto& n : j["notes"]) {
    at_any_load += n["text"].get<std::string>().starts_with("SLO unmet at any load") ? 1 : 0;
  }
  EXPECT_EQ(at_any_load, 2);
}

TEST(ServeCli, ADeploymentItsTopologyCannotHoldIsRefused) {
  // The KV cache crosses the deployment's network: the topology over every instance's nodes, 1
  // prefill + 8 decode nodes of one GPU here. A two-tier fat tree of radix 4 holds 4 x 4 / 2 = 8
  // endpoints: each instance alone fits, the deployment does not.
  const auto r = run_codesim(kServe +
                             " --set topology.family=ft2 --set topology.switch_radix=4 "
                             "--set serve.decode.instances=8");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "--set topology.family=ft2: error: topology.family: the serving deployment's 9 nodes "
            "(every prefill and decode instance) do not fit the topology: nodes: 9 nodes x 1 GPUs "
            "= 9 endpoints exceed the ft2's 8\n"
            "  hint: a topology that holds them, or fewer or smaller instances\n");
}

TEST(ServeCli, ADecodeInstanceMayPipelineItsLayers) {
  // Two decode GPUs per instance as two stages: each holds half the weights, so its KV cache
  // holds more tokens than one GPU's; every step passes both stages.
  const auto one = run_codesim(kServe + " --set serve.arrivals.requests=20 --format json");
  const auto two = run_codesim(kServe +
                               " --set hardware.gpus_per_node=2 --set serve.decode.pp=2 "
                               "--set serve.arrivals.requests=20 --format json");
  ASSERT_EQ(two.exit_code, 0) << two.err;
  const json a = json::parse(one.out);
  const json b = json::parse(two.out);
  EXPECT_EQ(b["decode"]["pp"], 2);
  EXPECT_EQ(b["decode"]["gpus_each"], 2);
  EXPECT_GT(b["decode_kv_tokens"].get<double>(), 2 * a["decode_kv_tokens"].get<double>());
}

TEST(ServeCli, EveryFormatCarriesTheFigures) {
  for (const char* format : {"table", "csv", "md", "html"}) {
    const auto r = run_codesim(kServe + " --set serve.arrivals.requests=20 --format " + format);
    ASSERT_EQ(r.exit_code, 0) << format << ": " << r.err;
    EXPECT_NE(r.out.find("TTFT p50 / p90 / p99"), std::string::npos) << format;
    EXPECT_NE(r.out.find("output tokens/s per node"), std::string::npos) << format;
    EXPECT_NE(r.out.find("energy per output token (J)"), std::string::npos) << format;
  }
}

}  // namespace
}  // namespace codesim::testing
