// Loading scenarios: presets, includes, overrides, defaults, round trips.
#include "sim/config/loader.hpp"

#include <gtest/gtest.h>

#include "models/hardware/catalog.hpp"
#include "sim/config/dump.hpp"
#include "sim/config/topology_from.hpp"

namespace codesim::config {
namespace {

const std::string kShipped = CODESIM_SOURCE_DIR "/scenarios/deepseek-v3-h800-mpft.yaml";

std::string error_of(const std::string& yaml) {
  try {
    load_scenario_text(yaml, "s.yaml");
  } catch (const core::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Loader, ShippedScenarioAsPublished) {
  const Scenario s = load_scenario(kShipped);
  EXPECT_EQ(s.name, "deepseek-v3-h800-mpft");
  EXPECT_EQ(s.gpus(), 2048);  // 256 nodes x 8
  EXPECT_EQ(s.parallelism.pp * s.parallelism.dp * s.parallelism.tp, s.gpus());
  EXPECT_EQ(s.model.spec.hidden, 7168);
  EXPECT_EQ(s.model.spec.mtp_depth, 1);
  EXPECT_EQ(s.topology.network.family, topologies::Family::mpft);  // from the included preset
  EXPECT_EQ(s.topology.network.planes, 8);
  EXPECT_DOUBLE_EQ(s.topology.switch_latency.value, 0.45e-6);  // (3.7us - 2.8us) / 2
  EXPECT_EQ(s.schedule.method, ScheduleMethod::dualpipe);
  EXPECT_EQ(s.workload.precision.combine, WirePrecision::bf16);
  EXPECT_EQ(s.routing.node_limit, 4);
  EXPECT_DOUBLE_EQ(s.routing.skew.zipf, 1.1);
}

TEST(Loader, DefaultsAndPresetFill) {
  const Scenario s = load_scenario_text("model: {preset: deepseek-v3}\n", "s.yaml");
  const auto h800 = *hardware::find_preset("h800");
  EXPECT_EQ(s.name, "s");  // file stem
  EXPECT_EQ(s.hardware.preset, "h800");
  EXPECT_EQ(s.hardware.nodes, 1);
  EXPECT_EQ(s.hardware.comm_sms, 20);
  EXPECT_EQ(s.hardware.spec.scale_up.bandwidth, h800.scale_up.bandwidth);
  EXPECT_EQ(s.parallelism.dp, 8);                   // derived: 8 GPUs / (pp 1 x tp 1)
  EXPECT_EQ(s.workload.global_batch_sequences, 8);  // derived: dp x micro-batch
  EXPECT_EQ(s.routing.node_limit, 4);               // the model's n_limited_groups
  EXPECT_EQ(s.topology.network.family, topologies::Family::node);
}

// The fabric picks the routing unless the scenario names one: InfiniBand's destination-based
// tables (d-mod-k), RoCE's per-flow hashing; a named one stays (hashing on InfiniBand as a
// what-if).
TEST(Loader, RoutingFollowsTheFabric) {
  const auto spread_of = [](const std::string& topology) {
    return path_spread(load_scenario_text(
        "model: {preset: deepseek-v3}\ntopology: {family: ft2" + topology + "}\n", "s.yaml"));
  };
  EXPECT_EQ(spread_of(""), topologies::Spread::destination);
  EXPECT_EQ(spread_of(", fabric: roce"), topologies::Spread::hashed);
  EXPECT_EQ(spread_of(", routing: ecmp-hash"), topologies::Spread::hashed);
  EXPECT_EQ(spread_of(", fabric: roce, routing: dmodk"), topologies::Spread::destination);
  EXPECT_EQ(spread_of(", routing: spread"), topologies::Spread::even);
  EXPECT_EQ(spread_of(", routing: ftree"), topologies::Spread::ftree);
  EXPECT_EQ(spread_of(", routing: updn"), topologies::Spread::updn);
  // A router network routes with OpenSM's default engine, minhop.
  EXPECT_EQ(path_spread(load_scenario_text(
                "model: {preset: deepseek-v3}\nhardware: {nodes: 16}\ntopology: {family: "
                "dragonfly, dragonfly_a: 4, dragonfly_h: 2, dragonfly_groups: 9, "
                "endpoints_per_router: 4}\n",
                "s.yaml")),
            topologies::Spread::minhop);
}

// dp is derived after every given value, cp among them: 4 nodes x 8 GPUs / (pp 1 x tp 8 x cp 2)
// = 2 (the schema declares cp after dp; a one-pass decoder derived dp = 32 / 8 = 4 and refused).
TEST(Loader, DataParallelismDerivedFromContextParallelismDeclaredAfterIt) {
  const Scenario s = load_scenario_text(
      "model: {preset: llama3.1-8b}\nhardware: {gpu: h100, nodes: 4}\n"
      "topology: {family: ft2, switch_radix: 64}\nparallelism: {tp: 8, cp: 2, pp: 1}\n",
      "s.yaml");
  EXPECT_EQ(s.parallelism.dp, 32 / (1 * 8 * 2));
  EXPECT_EQ(s.workload.global_batch_sequences, s.parallelism.dp * 1);  // dp x micro-batch of 1
}

// The framework's vocabulary padding: GPT-3's 50,257 rounded up to Megatron's 128 x TP = 1024
// gives 49 x 1024 + 81 -> 50 x 1024 = 51,200; the default 1 keeps the model's.
TEST(Loader, VocabularyPaddedToTheSoftwaresMultiple) {
  const std::string gpt3 = "model: {preset: gpt3-175b}\nhardware: {gpu: h100}\n";
  EXPECT_EQ(load_scenario_text(gpt3, "s.yaml").model.spec.vocab, 50257);
  EXPECT_EQ(load_scenario_text(gpt3 + "software: {vocab_multiple: 1024}\n", "s.yaml")
                .model.spec.vocab,
            51200);
  EXPECT_EQ(error_of(gpt3 + "software: {vocab_multiple: 0}\n"),
            "s.yaml:3:28: error: software.vocab_multiple: must be at least 1, got 0");
}

// CUDA graphs by default for decode steps only; a scenario can say otherwise.
TEST(Loader, CudaGraphsDefaultToDecodeSteps) {
  const std::string base = "model: {preset: llama3.1-8b}\nhardware: {gpu: h100}\n";
  EXPECT_FALSE(load_scenario_text(base, "s.yaml").software.cuda_graphs);
  EXPECT_TRUE(
      load_scenario_text(base + "workload: {kind: decode}\n", "s.yaml").software.cuda_graphs);
  EXPECT_FALSE(load_scenario_text(
                   base + "workload: {kind: decode}\nsoftware: {cuda_graphs: false}\n", "s.yaml")
                   .software.cuda_graphs);
  EXPECT_EQ(error_of(base + "software: {cuda_graphs: 3}\n"),
            "s.yaml:3:25: error: software.cuda_graphs: expected true or false, got '3'");
}

TEST(Loader, ExplicitValuesOverrideThePreset) {
  const Scenario s = load_scenario_text(
      "model: {preset: deepseek-v3}\nhardware:\n  gpu: h200\n  nvlink_bandwidth: 900GBps\n  "
      "nic_bandwidth: 800Gbps\n",
      "s.yaml");
  EXPECT_DOUBLE_EQ(s.hardware.spec.scale_up.bandwidth.value, 900e9);
  EXPECT_DOUBLE_EQ(s.hardware.spec.nic.bandwidth.value, 800e9 / 8);  // bits
  EXPECT_DOUBLE_EQ(s.hardware.spec.gpu.hbm_capacity.value, 141e9);   // kept from h200
}

TEST(Loader, CustomGpuTakesEveryFigureFromTheFile) {
  const Scenario s = load_scenario(CODESIM_SOURCE_DIR "/scenarios/custom-gpu-node.yaml");
  EXPECT_EQ(s.hardware.preset, "custom");
  EXPECT_DOUBLE_EQ(s.hardware.spec.scale_up.bandwidth.value, 900e9);
  EXPECT_DOUBLE_EQ(s.hardware.spec.nic.bandwidth.value, 800e9 / 8);
  EXPECT_EQ(to_yaml(load_scenario_text(to_yaml(s), "r.yaml")), to_yaml(s));
}

TEST(Loader, IncludingFileOverridesTheIncluded) {
  // The shipped preset says comm_sms 20; a file including it says 32.
  const Scenario s = load_scenario_text(
      "include: presets/h800-cluster.yaml\nmodel: {preset: deepseek-v3}\nhardware: {comm_sms: "
      "32}\n",
      CODESIM_SOURCE_DIR "/scenarios/x.yaml");
  EXPECT_EQ(s.hardware.comm_sms, 32);
  EXPECT_EQ(s.topology.network.family, topologies::Family::mpft);
}

TEST(Loader, ResolvedYamlLoadsBackToTheSameScenario) {
  const Scenario s = load_scenario(kShipped);
  const std::string once = to_yaml(s);
  const Scenario again = load_scenario_text(once, kShipped);
  EXPECT_EQ(to_yaml(again), once);
  EXPECT_EQ(to_json(again), to_json(s));
}

TEST(Loader, ModelFromConfigFile) {
  const Scenario s = load_scenario_text("model: {config: models/llm/configs/config_236B.json}\n",
                                        CODESIM_SOURCE_DIR "/s.yaml");
  EXPECT_EQ(s.model.spec.hidden, 5120);
  EXPECT_EQ(s.routing.node_limit, 3);  // V2: n_limited_groups = 3
}

TEST(LoaderErrors, CollectsEveryFieldProblem) {
  EXPECT_EQ(error_of("model: {preset: deepseek-v3}\nhardware:\n  nodes: 0\n  sms: many\n  "
                     "nvlink_latency: 3\n"),
            "s.yaml:3:10: error: hardware.nodes: must be at least 1, got 0\n"
            "s.yaml:4:8: error: hardware.sms: expected an integer, got 'many'\n"
            "s.yaml:5:19: error: hardware.nvlink_latency: '3' has no unit; a duration needs one\n"
            "  hint: write e.g. 1.5us, 3ms, 2s");
}

TEST(LoaderErrors, RulesNameTheKeysInvolved) {
  EXPECT_EQ(error_of("model: {preset: deepseek-v3}\nhardware: {nodes: 2}\nparallelism: {pp: "
                     "3}\ntopology: {family: ft2}\n"),
            // dp is derived (16 / 3 rounds to 5): what does not divide is said, with the key
            // written.
            "s.yaml:3:19: error: parallelism.pp: pp x tp x cp = 3 x 1 x 1 = 3 GPUs per "
            "data-parallel replica do not divide the GPU count, nodes x gpus_per_node = 2 x 8 = 16");
  EXPECT_EQ(error_of("model: {preset: deepseek-v3}\nhardware: {nodes: 2}\nparallelism: {pp: "
                     "3, dp: 5}\ntopology: {family: ft2}\n"),
            "s.yaml:3:26: error: parallelism.dp: pp x dp x tp x cp = 3 x 5 x 1 x 1 = 15 must equal "
            "the GPU count, nodes x gpus_per_node = 2 x 8 = 16");
  EXPECT_EQ(
      error_of("model: {preset: deepseek-v3}\nparallelism: {tp: 3}\n"),
      "s.yaml:2:19: error: parallelism.tp: pp x tp x cp = 1 x 3 x 1 = 3 GPUs per data-parallel "
      "replica do not divide the GPU count, nodes x gpus_per_node = 1 x 8 = 8\n"
      "s.yaml:2:19: error: parallelism.tp: tp = 3 must divide the model's 128 attention heads");
  EXPECT_EQ(error_of("model: {preset: deepseek-v3}\nparallelism: {tp: 2, dp: 4, sp: false}\n"),
            "s.yaml:2:33: error: parallelism.sp: a MoE model trained with tp > 1 needs sequence "
            "parallelism: each GPU of a TP group dispatches its own share of the tokens to the "
            "experts\n"
            "  hint: set parallelism.sp: true (Megatron requires it as well)");
}

TEST(LoaderErrors, Fp8GemmsNeedFp8TensorCores) {
  // The A100 has none: DeepSeek's FP8 GEMMs are refused where the scenario asks for them.
  EXPECT_EQ(error_of("model: {preset: deepseek-v3}\nhardware: {gpu: a100}\n"),
            "s.yaml:2:17: error: workload.precision.gemm: the a100 has no FP8 tensor cores\n"
            "  hint: use workload.precision.gemm: bf16, or give hardware.fp8_peak for a GPU that "
            "has them");
  EXPECT_EQ(error_of("model: {preset: deepseek-v3}\nhardware: {gpu: a100}\n"
                     "workload: {precision: {gemm: bf16}}\n"),
            "(no error)");
}

TEST(LoaderErrors, NonMinimalRoutingOnlyOnRouterNetworks) {
  EXPECT_EQ(error_of("model: {preset: deepseek-v3}\ntopology: {family: ft2, routing: ugal}\n"),
            "s.yaml:2:34: error: topology.routing: ugal detours through intermediate routers: "
            "slimfly and dragonfly only, not ft2");
  EXPECT_EQ(error_of("model: {preset: deepseek-v3}\nhardware: {nodes: 16}\n"
                     "topology: {family: dragonfly, routing: valiant, dragonfly_a: 4, "
                     "dragonfly_h: 2, dragonfly_groups: 9, endpoints_per_router: 4}\n"),
            "(no error)");
}

TEST(LoaderErrors, FtreeOnlyOnFatTrees) {
  EXPECT_EQ(error_of("model: {preset: deepseek-v3}\nhardware: {nodes: 16}\n"
                     "topology: {family: dragonfly, routing: ftree, dragonfly_a: 4, "
                     "dragonfly_h: 2, dragonfly_groups: 9, endpoints_per_router: 4}\n"),
            "s.yaml:3:40: error: topology.routing: ftree routes fat trees, not dragonfly: route "
            "it with minhop or updn");
  EXPECT_EQ(error_of("model: {preset: deepseek-v3}\ntopology: {family: ft3, routing: ftree}\n"),
            "(no error)");
}

// A size parameter another family reads is refused where it is written, naming the families that
// read it (the family registry, topologies/family.hpp).
TEST(LoaderErrors, ParameterTheFamilyDoesNotRead) {
  EXPECT_EQ(error_of("model: {preset: deepseek-v3}\nhardware: {nodes: 16}\n"
                     "topology: {family: ft2, slimfly_q: 7}\n"),
            "s.yaml:3:36: error: topology.slimfly_q: only slimfly read it; ft2 takes the default "
            "0, got 7");
  EXPECT_EQ(
      error_of("model: {preset: deepseek-v3}\nhardware: {nodes: 16}\n"
               "topology: {family: ft2, planes: 8}\n"),
      "s.yaml:3:33: error: topology.planes: only mpft read it; ft2 takes the default 1, got 8");
}

TEST(LoaderErrors, NullValueAndListOfWrongThings) {
  EXPECT_EQ(error_of("model: {preset: deepseek-v3}\nhardware:\n  nodes:\n"),
            "s.yaml:3:3: error: hardware.nodes: has no value");
  EXPECT_EQ(error_of("model: {preset: deepseek-v3}\ntopology: {failed_planes: [1, x]}\n"),
            "s.yaml:2:31: error: topology.failed_planes: expected an integer, got 'x'");
  EXPECT_EQ(error_of("model: {preset: deepseek-v3}\nworkload: {kind: decod}\n"),
            "s.yaml:2:18: error: workload.kind: unknown value 'decod'\n"
            "  hint: did you mean 'decode'? (one of: train, prefill, decode)");
  // Where reports go is the command line's business (--format, --report, --out), not the
  // scenario's.
  EXPECT_EQ(error_of("model: {preset: deepseek-v3}\noutput: {formats: [json]}\n"),
            "s.yaml:2:1: error: output: unknown key\n  hint: keys here: name, description, "
            "include, model, hardware, topology, cost, parallelism, schedule, workload, routing, "
            "inference, software, serve, campaign, variability, sweep, search");
  EXPECT_EQ(error_of("- a\n- b\n"),
            "s.yaml:1:1: error: a scenario must be a map of sections, got a list");
}

}  // namespace
}  // namespace codesim::config
