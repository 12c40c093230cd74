// Replay: the list schedule reproduces a measurement, propagates changed times through the DAG,
// and a Chrome export reads back with every op, stream and duration.
#include "sim/workload/replay.hpp"

#include <gtest/gtest.h>

#include "models/hardware/catalog.hpp"
#include "sim/workload/chrome_export.hpp"
#include "sim/workload/chrome_import.hpp"

namespace codesim::workload {
namespace {

const std::string kTrain = CODESIM_SOURCE_DIR "/../shared/data/deepseek-profile-data/train.json";

Op measured(int id, int stream, double start, double dur, std::vector<int> deps = {}) {
  return Op{
      .id = id, .stream = stream, .measured_us = dur, .start_us = start, .deps = std::move(deps)};
}

TEST(Replay, MeasuredDurationsGiveTheMeasurementBack) {
  const StepTrace t = import_chrome_trace_file(kTrain);
  const Timeline m = measured_timeline(t);
  const Timeline r = replay(t, m.duration_us);
  for (std::size_t i = 0; i < t.ops.size(); ++i) {
    EXPECT_NEAR(r.start_us[i], m.start_us[i], 1e-6) << i;
  }
}

TEST(Replay, ShorterOpsPullTheirDependentsForward) {
  // Stream 7: a [0, 10], b [12, 20] (2 us launch gap). Stream 27: c [10, 30] waits for a.
  // Halving a: c starts at 5; b keeps its 2 us gap after a: starts at 7.
  const StepTrace t{
      .source = "t",
      .ops = {measured(0, 7, 0, 10), measured(1, 27, 10, 20, {0}), measured(2, 7, 12, 8)}};
  const Timeline r = replay(t, {5, 20, 8});
  EXPECT_DOUBLE_EQ(r.start_us[0], 0);
  EXPECT_DOUBLE_EQ(r.start_us[1], 5);
  EXPECT_DOUBLE_EQ(r.start_us[2], 7);
}

TEST(Replay, RooflineScalingBetweenGpus) {
  // H800 -> H200: same tensor peaks, HBM 3.35 -> 4.8 TB/s; communication unchanged.
  StepTrace t{.source = "t",
              .ops = {measured(0, 7, 0, 100), measured(1, 7, 100, 100), measured(2, 27, 0, 100)}};
  t.ops[0].op_class = cost::KernelClass::grouped_gemm;
  t.ops[1].op_class = cost::KernelClass::elementwise;
  t.ops[2].op_class = cost::KernelClass::communication;
  const auto d =
      scaled_durations(t, hardware::find_preset("h800")->gpu, hardware::find_preset("h200")->gpu);
  EXPECT_DOUBLE_EQ(d[0], 100);
  EXPECT_DOUBLE_EQ(d[1], 100 * 3.35 / 4.8);
  EXPECT_DOUBLE_EQ(d[2], 100);
}

TEST(ChromeExport, ImportedBackKeepsEveryOpStreamAndDuration) {
  const StepTrace t = import_chrome_trace_file(kTrain);
  const Timeline m = measured_timeline(t);
  const StepTrace back = import_chrome_trace(chrome_trace(t, m).dump(), "export.json");
  ASSERT_EQ(back.ops.size(), t.ops.size());
  for (std::size_t i = 0; i < t.ops.size(); ++i) {
    EXPECT_EQ(back.ops[i].name, t.ops[i].name);
    EXPECT_EQ(back.ops[i].stream, t.ops[i].stream);
    EXPECT_EQ(back.ops[i].op_class, t.ops[i].op_class);
    EXPECT_NEAR(*back.ops[i].measured_us, *t.ops[i].measured_us, 1e-9);
    EXPECT_NEAR(*back.ops[i].start_us, *t.ops[i].start_us, 1e-6);
  }
}

}  // namespace
}  // namespace codesim::workload
