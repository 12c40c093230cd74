// Bad scenario input, one file per case under tests/bad_input/: exit code 2, nothing on stdout,
// and the exact message (file:line:col, key path, what was wrong, a hint).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include "tests/support/run_cli.hpp"
#include "tests/support/temp_dir.hpp"

namespace codesim::testing {
namespace {

struct BadInput {
  const char* file;
  const char* message;
};

class BadScenario : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadScenario, ExitsTwoWithTheExactMessage) {
  const BadInput c = GetParam();
  const auto r = run_codesim(std::string("check tests/bad_input/") + c.file);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, c.message);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, BadScenario,
    ::testing::Values(
        BadInput{"bad_variability.yaml",
                 "tests/bad_input/bad_variability.yaml:5:11: error: variability.gpu_cv: expected a "
                 "number, got 'nan'\n"
                 "tests/bad_input/bad_variability.yaml:6:22: error: variability.gpu_pace_interval: "
                 "must be at least 0s, got '-20ms'\n"
                 "tests/bad_input/bad_variability.yaml:7:49: error: variability.gpu_slow.slowdown: "
                 "must be at least 1, got 0.5\n"},
        BadInput{"include_device.yaml",
                 "tests/bad_input/include_device.yaml:2:10: error: include: the included file "
                 "'/dev/zero' is not a regular file (a FIFO, a device or a socket)\n"
                 "  hint: copy what it holds into a file\n"},
        BadInput{"bad_training_state.yaml",
                 "tests/bad_input/bad_training_state.yaml:4:31: error: "
                 "workload.precision.master_weights: expected true or false, got 'maybe'\n"
                 "tests/bad_input/bad_training_state.yaml:4:49: error: "
                 "workload.precision.gradients: unknown value 'fp16'\n"
                 "  hint: expected one of: bf16, fp32\n"
                 "tests/bad_input/bad_training_state.yaml:4:73: error: "
                 "workload.precision.optimizer_states: unknown value 'int8'\n"
                 "  hint: expected one of: bf16, fp32\n"
                 "tests/bad_input/bad_training_state.yaml:6:14: error: software.optimizer: "
                 "unknown value 'sgd'\n"
                 "  hint: expected one of: foreach, fused\n"},
        // A file that is not a scenario at all (a README, /etc/passwd) is not echoed whole.
        BadInput{"prose.yaml",
                 "tests/bad_input/prose.yaml:1:1: error: a scenario must be a map of sections, "
                 "got 'This file is prose and not a scenario, passed by mistake in ' ... (148 "
                 "characters)\n"},
        BadInput{"replica_over_gpus.yaml",
                 "tests/bad_input/replica_over_gpus.yaml:4:30: error: hardware.nodes: pp x tp x cp "
                 "= 1 x 8 x 2 = 16 GPUs per data-parallel replica do not divide the GPU count, "
                 "nodes x gpus_per_node = 1 x 8 = 8\n"},
        BadInput{"unfused_with_cp.yaml",
                 "tests/bad_input/unfused_with_cp.yaml:7:23: error: software.attention: unfused "
                 "attention computes every query of a sequence against every key on one GPU; "
                 "context parallelism (cp = 2) splits the queries\n"
                 "  hint: use software.attention: flash with context parallelism\n"},
        BadInput{"dp_overlap_zero2.yaml",
                 "tests/bad_input/dp_overlap_zero2.yaml:6:43: error: parallelism.dp_overlap: "
                 "ZeRO-2 reduce-scatters each micro-batch's gradients as its backward produces "
                 "them; they cannot wait for the step's end\n"
                 "  hint: use zero 0 or 1, or dp_overlap: true\n"},
        BadInput{"routing_with_ep.yaml",
                 "tests/bad_input/routing_with_ep.yaml:8:18: error: inference.expert_counts: a "
                 "run's routing is priced without expert parallelism (ep 8: the EP round spreads "
                 "tokens evenly)\n"
                 "  hint: set parallelism.ep: 1, or drop inference.expert_counts\n"},
        BadInput{"routing_short.yaml",
                 "tests/bad_input/mixtral_counts.json:1:1: error: layers: has 31 lists of expert "
                 "counts; the model has 32 MoE layers\n"},
        BadInput{"bad_model_json.yaml",
                 "tests/bad_input/broken_config.json:4:13: error: invalid JSON: syntax error while "
                 "parsing object - unexpected string literal; expected '}'\n"},
        BadInput{
            "bits_for_bytes.yaml",
            "tests/bad_input/bits_for_bytes.yaml:4:17: error: hardware.hbm_capacity: '80Gb' is in "
            "bits; sizes are in bytes\n"
            "  hint: write the size in bytes with 'B' (8 bits = 1B), e.g. 80GB, 141GiB, 7168B\n"},
        BadInput{"comm_sms_all.yaml",
                 "tests/bad_input/comm_sms_all.yaml:4:13: error: hardware.comm_sms: comm_sms (132) "
                 "must leave SMs for compute: the GPU has 132\n"},
        BadInput{"custom_incomplete.yaml",
                 "tests/bad_input/custom_incomplete.yaml:4:8: error: hardware.gpus_per_node: "
                 "missing: a custom GPU has no preset to take it from\n"
                 "  hint: give it (integer) or start from a preset such as h800\n"
                 "tests/bad_input/custom_incomplete.yaml:4:8: error: "
                 "hardware.nvlink_nominal_bandwidth: missing: a custom GPU has no preset to take "
                 "it from\n"
                 "  hint: give it (bandwidth) or start from a preset such as h800\n"
                 "tests/bad_input/custom_incomplete.yaml:4:8: error: "
                 "hardware.nic_nominal_bandwidth: missing: a custom GPU has no preset to take it "
                 "from\n"
                 "  hint: give it (bandwidth) or start from a preset such as h800\n"
                 "tests/bad_input/custom_incomplete.yaml:4:8: error: "
                 "hardware.nic_small_message_efficiency: missing: a custom GPU has no preset to "
                 "take it from\n"
                 "  hint: give it (number) or start from a preset such as h800\n"
                 "tests/bad_input/custom_incomplete.yaml:4:8: error: hardware.pcie_bandwidth: "
                 "missing: a custom GPU has no preset to take it from\n"
                 "  hint: give it (bandwidth) or start from a preset such as h800\n"},
        BadInput{"cycle_a.yaml",
                 "tests/bad_input/cycle_a.yaml:1:10: error: include: includes nest deeper than 16 "
                 "files (a cycle?)\n"},
        BadInput{"dense_with_ep.yaml",
                 "tests/bad_input/dense_with_ep.yaml:6:7: error: parallelism.ep: ep must be 1 for "
                 "a dense model (llama3.1-405b has no experts)\n"},
        BadInput{"empty.yaml",
                 "tests/bad_input/empty.yaml: error: the scenario is empty\n"
                 "  hint: start from scenarios/deepseek-v3-h800-mpft.yaml\n"},
        BadInput{"ep_not_dividing.yaml",
                 "tests/bad_input/ep_not_dividing.yaml:7:7: error: parallelism.ep: the GPU count "
                 "(2048) must be divisible by pp x ep = 16 x 96 = 1536\n"
                 "  hint: each pipeline stage's 128 GPUs split into expert-parallel groups of ep\n"
                 "tests/bad_input/ep_not_dividing.yaml:7:7: error: parallelism.ep: the model's 256 "
                 "routed experts do not spread evenly over ep = 96 GPUs\n"},
        BadInput{"failed_plane.yaml",
                 "tests/bad_input/failed_plane.yaml:8:18: error: topology.failed_planes: plane 8 "
                 "does not exist (planes are 0 to 7)\n"},
        BadInput{"global_batch.yaml",
                 "tests/bad_input/global_batch.yaml:10:27: error: workload.global_batch_sequences: "
                 "global_batch_sequences (1000) must be a multiple of dp x micro_batch_sequences = "
                 "128 x 1 = 128\n"},
        BadInput{"inconsistent_parallelism.yaml",
                 "tests/bad_input/inconsistent_parallelism.yaml:8:7: error: parallelism.dp: pp x "
                 "dp x tp x cp = 16 x 64 x 1 x 1 = 1024 must equal the GPU count, nodes x "
                 "gpus_per_node = 256 x 8 = 2048\n"},
        BadInput{"list_expected.yaml",
                 "tests/bad_input/list_expected.yaml:4:18: error: topology.failed_planes: expected "
                 "a list of integers, got '3'\n"
                 "  hint: write a list: [a, b]\n"},
        BadInput{"missing_include.yaml",
                 "tests/bad_input/missing_include.yaml:1:10: error: include: cannot read the "
                 "included file 'tests/bad_input/presets/does-not-exist.yaml'\n"},
        BadInput{"missing_unit.yaml",
                 "tests/bad_input/missing_unit.yaml:4:21: error: hardware.nvlink_bandwidth: '160' "
                 "has no unit; a bandwidth needs one\n"
                 "  hint: write e.g. 50GBps, 400Gbps, 160 GB/s\n"},
        BadInput{
            "model_json_missing_key.yaml",
            "tests/bad_input/incomplete_config.json:1:15: error: n_layers: expected an integer, "
            "got a string \"61\"\n"
            "tests/bad_input/incomplete_config.json: error: v_head_dim: missing required key\n"},
        BadInput{"negative_bandwidth.yaml",
                 "tests/bad_input/negative_bandwidth.yaml:4:21: error: hardware.nvlink_bandwidth: "
                 "must be greater than 0Bps, got '-1280Gbps'\n"},
        BadInput{
            "no_model.yaml",
            "tests/bad_input/no_model.yaml: error: model: no model given\n"
            "  hint: add model: {preset: deepseek-v3} or model: {config: path/to/config.json}\n"},
        BadInput{"node_limit.yaml",
                 "tests/bad_input/node_limit.yaml:4:15: error: routing.node_limit: node_limit (9) "
                 "exceeds the model's 8 expert groups\n"
                 "  hint: node_limit = 8 already means no limit\n"},
        BadInput{"preset_and_config.yaml",
                 "tests/bad_input/preset_and_config.yaml:3:11: error: model.config: give "
                 "model.preset or model.config, not both\n"},
        BadInput{"real_expected.yaml",
                 "tests/bad_input/real_expected.yaml:5:11: error: routing.skew.zipf: expected a "
                 "number, got 'high'\n"},
        BadInput{
            "section_as_scalar.yaml",
            "tests/bad_input/section_as_scalar.yaml:3:11: error: hardware: expected a map of "
            "settings, got 'h800'\n"
            "  hint: keys here: gpu, nodes, gpus_per_node, sms, comm_sms, sm_copy_rate, bf16_peak, "
            "fp8_peak, hbm_capacity, hbm_bandwidth, nvlink_bandwidth, nvlink_nominal_bandwidth, "
            "nvlink_latency, nic_bandwidth, nic_nominal_bandwidth, nic_small_message_efficiency, "
            "nic_latency, nic_latency_cross_leaf, pcie_bandwidth, power_limit, nic_power, switch_power, host_power\n"},
        BadInput{"several_errors.yaml",
                 "tests/bad_input/several_errors.yaml:4:10: error: hardware.nodes: must be at "
                 "least 1, got -1\n"
                 "tests/bad_input/several_errors.yaml:5:18: error: hardware.nic_bandwidth: '400' "
                 "has no unit; a bandwidth needs one\n"
                 "  hint: write e.g. 50GBps, 400Gbps, 160 GB/s\n"
                 "tests/bad_input/several_errors.yaml:7:7: error: parallelism.tp: expected an "
                 "integer, got 'two'\n"},
        BadInput{"size_for_rate.yaml",
                 "tests/bad_input/size_for_rate.yaml:4:18: error: hardware.nic_bandwidth: '400GB' "
                 "is a size, not a bandwidth\n"
                 "  hint: append 'ps' or '/s': 400GBps\n"},
        BadInput{"unknown_choice.yaml",
                 "tests/bad_input/unknown_choice.yaml:4:11: error: schedule.method: unknown value "
                 "'dualpip'\n"
                 "  hint: did you mean 'dualpipe'? (one of: 1f1b, zb1p, dualpipe, dualpipev, "
                 "interleaved-1f1b)\n"},
        BadInput{
            "unknown_key.yaml",
            "tests/bad_input/unknown_key.yaml:4:3: error: hardware.nvlink_bandwith: unknown key\n"
            "  hint: did you mean 'nvlink_bandwidth'?\n"},
        BadInput{"unknown_model.yaml",
                 "tests/bad_input/unknown_model.yaml:2:11: error: model.preset: unknown value "
                 "'deepseek-v4'\n"
                 "  hint: did you mean 'deepseek-v3'? (one of: deepseek-v3, deepseek-v2, "
                 "deepseek-v2-lite, qwen2.5-72b, llama3.1-405b, llama3.1-70b, llama3.1-8b, "
                 "mixtral-8x7b, gpt3-175b, gpt-oss-120b, gpt-oss-20b, glm-4.5, kimi-k2, "
                 "llama4-maverick, llama4-scout, mixtral-8x22b, qwen1.5-moe-a2.7b, "
                 "qwen3-235b-a22b, qwen3-30b-a3b)\n"},
        BadInput{"unknown_section.yaml",
                 "tests/bad_input/unknown_section.yaml:3:1: error: hardwre: unknown key\n"
                 "  hint: did you mean 'hardware'?\n"},
        BadInput{"unknown_unit.yaml",
                 "tests/bad_input/unknown_unit.yaml:4:19: error: topology.switch_latency: unknown "
                 "unit 'parsecs' in '5 parsecs'\n"
                 "  hint: a duration is written like 1.5us, 3ms, 2s\n"},
        BadInput{"wrong_type.yaml",
                 "tests/bad_input/wrong_type.yaml:4:7: error: parallelism.pp: expected an integer, "
                 "got 'four'\n"},
        BadInput{"yaml_syntax.yaml",
                 "tests/bad_input/yaml_syntax.yaml:4:1: error: invalid YAML: end of sequence flow "
                 "not found\n"},
        BadInput{"zero_nodes.yaml",
                 "tests/bad_input/zero_nodes.yaml:4:10: error: hardware.nodes: must be at least 1, "
                 "got 0\n"},
        BadInput{"missing_file.yaml",
                 "tests/bad_input/missing_file.yaml: error: cannot read the scenario file\n"}),
    [](const auto& param_info) {
      std::string name = param_info.param.file;
      name = name.substr(0, name.find('.'));
      return name;
    });

TEST(BadInputFiles, FifosDirectoriesAndDevicesAreRefusedBeforeTheyAreRead) {
  // A FIFO would block the reader for ever, a directory reads as nothing, /dev/zero never ends:
  // each is refused by its type before it is opened, exit 2, at once.
  const TempDir d("fifo");
  const std::string fifo = d / "scenario.yaml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto f = run_codesim("check " + fifo);
  EXPECT_EQ(f.exit_code, 2);
  EXPECT_EQ(f.err, fifo +
                       ": error: the scenario file is not a regular file (a FIFO, a device or a "
                       "socket)\n  hint: copy what it holds into a file\n");
  const auto dir = run_codesim("check tests/bad_input");
  EXPECT_EQ(dir.exit_code, 2);
  EXPECT_EQ(dir.err,
            "tests/bad_input: error: the scenario file is a directory\n"
            "  hint: give the file itself\n");
  const auto trace = run_codesim("trace import " + fifo);
  EXPECT_EQ(trace.exit_code, 2);
  EXPECT_EQ(trace.err, fifo +
                           ": error: the trace file is not a regular file (a FIFO, a device or "
                           "a socket)\n  hint: copy what it holds into a file\n");
}

}  // namespace
}  // namespace codesim::testing
