// The sweep: section (points in order, ranges, zip) and --set settings; errors word for word.
#include "sim/config/sweep.hpp"

#include <gtest/gtest.h>

namespace codesim::config {
namespace {

const std::string kBase = "model: {preset: deepseek-v3}\nhardware: {comm_sms: 24}\n";

Sweep sweep_of(const std::string& sweep_yaml) {
  return *read_sweep(read_scenario_text(kBase + sweep_yaml, "s.yaml"));
}

std::vector<std::string> texts(const Sweep& s) {
  std::vector<std::string> out;
  for (const auto& point : s.points) {
    std::string p;
    for (const auto& setting : point) {
      p += (p.empty() ? "" : " ") + setting.key + "=" + setting.text();
    }
    out.push_back(p);
  }
  return out;
}

// The message of the InputError a sweep (or one of its points) raises.
std::string sweep_error_of(const std::string& sweep_yaml) {
  try {
    const auto flat = read_scenario_text(kBase + sweep_yaml, "s.yaml");
    load_sweep_points(flat, "s.yaml", *read_sweep(flat));
  } catch (const core::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Sweep, NoneWhenTheFileHasNoSection) {
  EXPECT_FALSE(read_sweep(read_scenario_text(kBase, "s.yaml")).has_value());
}

TEST(Sweep, CartesianVariesTheLastKeyFastest) {
  const Sweep s =
      sweep_of("sweep:\n  routing.node_limit: [1, 2]\n  schedule.method: [dualpipe, 1f1b, zb1p]\n");
  EXPECT_EQ(s.mode, SweepMode::cartesian);
  ASSERT_EQ(s.axes.size(), 2u);
  EXPECT_EQ(texts(s), (std::vector<std::string>{"routing.node_limit=1 schedule.method=dualpipe",
                                                "routing.node_limit=1 schedule.method=1f1b",
                                                "routing.node_limit=1 schedule.method=zb1p",
                                                "routing.node_limit=2 schedule.method=dualpipe",
                                                "routing.node_limit=2 schedule.method=1f1b",
                                                "routing.node_limit=2 schedule.method=zb1p"}));
}

TEST(Sweep, ZipTakesTheIthValuesTogether) {
  const Sweep s = sweep_of(
      "sweep:\n  mode: zip\n  hardware.nvlink_bandwidth: [160GBps, 450GBps]\n"
      "  hardware.nic_bandwidth: [400Gbps, 800Gbps]\n");
  EXPECT_EQ(texts(s), (std::vector<std::string>{
                          "hardware.nvlink_bandwidth=160GBps hardware.nic_bandwidth=400Gbps",
                          "hardware.nvlink_bandwidth=450GBps hardware.nic_bandwidth=800Gbps"}));
}

TEST(Sweep, RangesIncludeBothEndsInCanonicalUnits) {
  // 16, 24, 32 SMs; 50, 75, 100 GB/s (the step divides the span exactly).
  EXPECT_EQ(texts(sweep_of("sweep: {hardware.comm_sms: {from: 16, to: 32, step: 8}}\n")),
            (std::vector<std::string>{"hardware.comm_sms=16", "hardware.comm_sms=24",
                                      "hardware.comm_sms=32"}));
  EXPECT_EQ(
      texts(sweep_of(
          "sweep: {hardware.nic_bandwidth: {from: 400Gbps, to: 800Gbps, step: 25GBps}}\n")),
      (std::vector<std::string>{"hardware.nic_bandwidth=50GBps", "hardware.nic_bandwidth=75GBps",
                                "hardware.nic_bandwidth=100GBps"}));
}

TEST(Sweep, PointsDecodeWithTheirValues) {
  const auto flat = read_scenario_text(kBase + "sweep: {routing.node_limit: [1, 2]}\n", "s.yaml");
  const auto points = load_sweep_points(flat, "s.yaml", *read_sweep(flat));
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].routing.node_limit, 1);
  EXPECT_EQ(points[1].routing.node_limit, 2);
  EXPECT_EQ(points[1].hardware.comm_sms, 24);  // the base keeps its keys
}

TEST(SweepErrors, WordForWord) {
  EXPECT_EQ(sweep_error_of("sweep:\n  routing.node_limt: [1, 2]\n"),
            "s.yaml:4:3: error: sweep.routing.node_limt: unknown key path\n"
            "  hint: did you mean 'routing.node_limit'?");
  EXPECT_EQ(sweep_error_of("sweep:\n  routing.node_limit: []\n"),
            "s.yaml:4:23: error: sweep.routing.node_limit: has no values\n"
            "  hint: give at least one value: [a, b]");
  EXPECT_EQ(sweep_error_of("sweep:\n  hardware.nvlink_bandwidth: [160GBps, 450GB]\n"),
            "s.yaml:4:40: error: hardware.nvlink_bandwidth: '450GB' is a size, not a bandwidth\n"
            "  hint: append 'ps' or '/s': 450GBps");
  EXPECT_EQ(sweep_error_of(
                "sweep:\n  mode: zip\n  routing.node_limit: [1, 2]\n  schedule.method: [1f1b]\n"),
            "s.yaml:4:3: error: sweep.mode: zip needs one length: routing.node_limit has 2 values, "
            "schedule.method has 1\n"
            "  hint: give every key as many values, or use mode: cartesian");
  EXPECT_EQ(sweep_error_of("sweep:\n  mode: grid\n  routing.node_limit: [1]\n"),
            "s.yaml:4:9: error: sweep.mode: unknown sweep mode 'grid'\n"
            "  hint: cartesian (every combination) or zip (the i-th values together)");
  EXPECT_EQ(sweep_error_of("sweep: {hardware.comm_sms: {from: 32, to: 16, step: 8}}\n"),
            "s.yaml:3:28: error: sweep.hardware.comm_sms: a range needs step > 0 and to >= from");
  EXPECT_EQ(
      sweep_error_of("sweep: {schedule.method: {from: 1, to: 2, step: 1}}\n"),
      "s.yaml:3:26: error: sweep.schedule.method: a range needs a numeric key; this one is one of: "
      "1f1b, zb1p, dualpipe, dualpipev, interleaved-1f1b\n"
      "  hint: list the values: [a, b, c]");
  EXPECT_EQ(sweep_error_of("sweep: {}\n"),
            "s.yaml:3:8: error: sweep: varies no key\n"
            "  hint: add a key path with its values, e.g. routing.node_limit: [1, 2, 4, 8]");
  EXPECT_EQ(
      sweep_error_of("sweep: {routing.node_limit: 2}\n"),
      "s.yaml:3:29: error: sweep.routing.node_limit: expected a list of values or a range {from, "
      "to, step}\n"
      "  hint: write [a, b, c]");
}

TEST(SweepErrors, ARangeValueOutOfRangeFailsAtTheRange) {
  EXPECT_EQ(sweep_error_of("sweep: {hardware.comm_sms: {from: 100, to: 200, step: 100}}\n"),
            "s.yaml:3:28: error: hardware.comm_sms: comm_sms (200) must leave SMs for compute: the "
            "GPU has 132");
}

TEST(Settings, ReplaceTheFileValue) {
  const Scenario s = load_scenario(
      CODESIM_SOURCE_DIR "/scenarios/deepseek-v3-h800-mpft.yaml",
      {parse_setting("routing.node_limit=2"), parse_setting("hardware.nvlink_bandwidth=450GBps")});
  EXPECT_EQ(s.routing.node_limit, 2);
  EXPECT_DOUBLE_EQ(s.hardware.spec.scale_up.bandwidth.value, 450e9);
}

TEST(Settings, ErrorsWordForWord) {
  const auto message = [](const std::string& assignment) {
    try {
      load_scenario_text(kBase, "s.yaml", {parse_setting(assignment)});
    } catch (const core::InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(message("routing.nodelimit=2"),
            "--set routing.nodelimit=2: error: routing.nodelimit: unknown key path\n"
            "  hint: did you mean 'routing.node_limit'?");
  EXPECT_EQ(message("routing.node_limit"),
            "--set routing.node_limit: error: expected key.path=value\n"
            "  hint: e.g. --set routing.node_limit=2");
  // An include would be read after the scenario's own: refused rather than silently ignored.
  EXPECT_EQ(message("include=presets/h800-cluster.yaml"),
            "--set include=presets/h800-cluster.yaml: error: include: includes cannot be set with "
            "--set\n  hint: list the file under the scenario's include:");
  EXPECT_EQ(message("hardware.nic_bandwidth=50"),
            "--set hardware.nic_bandwidth=50: error: hardware.nic_bandwidth: '50' has no unit; a "
            "bandwidth needs one\n  hint: write e.g. 50GBps, 400Gbps, 160 GB/s");
}

}  // namespace
}  // namespace codesim::config
