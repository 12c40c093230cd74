// The wire form of results (metrics/result_record.hpp): what a child sends comes back field for
// field, every double to the bit.
#include "sim/metrics/result_record.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace codesim::metrics {
namespace {

using core::Bytes;
using core::Seconds;

// Every kind of field set, with values whose decimal forms are not exact (1/3, 0.1 + 0.2).
RunResult full_run() {
  RunResult r;
  r.scenario = "probe";
  r.fidelity = Fidelity::fast;
  r.network = {"mpft", 2048, 320, 8192, 12.5e6};
  r.step_time = Seconds(1.0 / 3);
  r.spread = StepSpread{.identical = Seconds(0.1 + 0.2),
                        .mean = Seconds(1.0 / 3),
                        .steps = 8,
                        .slow_gpus = 0.25,
                        .breakdown = {.forward = Seconds(0.5)},
                        .step_times_s = {0.3, 1.0 / 3},
                        .step_weights = {0.5, 0.5}};
  r.breakdown = {Seconds(1), Seconds(2), Seconds(0.5), Seconds(5), Seconds(1), Seconds(0.5)};
  r.tokens_per_day = 8.64e9;
  r.exposed_comm = {{CommGroup::dp, Seconds(0.25)}, {CommGroup::ep, Seconds(1e-300)}};
  r.busiest_links = {{"ib nic_n0_0 -> leaf0", Bytes(2e9), 0.5, Seconds(5), 0.8}};
  r.tiers = {{"ib nic -> leaf", 2048, 1152, Bytes(2.5e12), 0.25, 0.5, 0.8}};
  r.memory = {Bytes(10e9), Bytes(2e9), Bytes(4e9), Bytes(30e9), 3, Bytes(80e9)};
  r.memory.gradients_persist = false;
  r.energy = StepEnergy{.gpu_compute_j = 1.0 / 7, .power_bound = true};
  r.placement = {"embedding + 0-3", "4-7"};
  r.notes = {{core::NoteKind::fitted, "piece times"}, {core::NoteKind::warning, "does not fit"}};
  r.lanes = {{.compute = {{Seconds(0), Seconds(0.1), ChunkSpan::backward}},
              .comm = {{Seconds(0.05), Seconds(0.2), CommGroup::pp}},
              .exposed = {{Seconds(0.1), Seconds(0.2), CommGroup::pp}},
              .power = {1755, 690, 120},
              .memory = {3e9, {1e9}, {2e9}}}};
  return r;
}

TEST(ResultRecord, ATrainingStepComesBackFieldForField) {
  const RunResult r = full_run();
  const auto back = unpack<RunResult>(pack(r));
  EXPECT_EQ(record_json(back), record_json(r));
  // Spot checks of what the record must keep exactly: bits, optionals, enums, lanes.
  EXPECT_EQ(back.step_time.value, 1.0 / 3);
  EXPECT_EQ(back.spread->identical.value, 0.1 + 0.2);
  EXPECT_EQ(back.exposed_comm.at(CommGroup::ep).value, 1e-300);
  EXPECT_EQ(back.fidelity, Fidelity::fast);
  EXPECT_TRUE(back.energy->power_bound);
  EXPECT_FALSE(back.memory.gradients_persist);
  EXPECT_EQ(back.lanes.at(0).compute.at(0).kind, ChunkSpan::backward);
  EXPECT_EQ(back.notes.at(1).kind, core::NoteKind::warning);
}

TEST(ResultRecord, AbsentPartsStayAbsent) {
  RunResult r = full_run();
  r.spread.reset();
  r.energy.reset();
  const auto back = from_record_json<RunResult>(record_json(r));
  EXPECT_FALSE(back.spread);
  EXPECT_FALSE(back.energy);
}

TEST(ResultRecord, MessagePackKeepsWhatJsonTextCannot) {
  // JSON has no NaN or infinity (nlohmann writes null); the child's MessagePack bytes keep them.
  RunResult r = full_run();
  r.mfu_causal = std::numeric_limits<double>::quiet_NaN();
  r.tokens_per_step = std::numeric_limits<double>::infinity();
  const auto back = unpack<RunResult>(pack(r));
  EXPECT_TRUE(std::isnan(back.mfu_causal));
  EXPECT_EQ(back.tokens_per_step, std::numeric_limits<double>::infinity());
}

TEST(ResultRecord, AnInferenceStepComesBackFieldForField) {
  InferenceResult r;
  r.scenario = "decode";
  r.phase = InferencePhase::prefill;
  r.mode = InferenceMode::bound;
  r.tpot = Seconds(0.1 + 0.2);
  r.dispatch = Seconds(1.0 / 3);
  r.bound_by = "HBM";
  r.largest_batch = 1LL << 40;
  r.energy = StepEnergy{.per_token_j = 0.1};
  r.notes = {{core::NoteKind::assumed, "even routing"}};
  const auto back = unpack<InferenceResult>(pack(r));
  EXPECT_EQ(record_json(back), record_json(r));
  EXPECT_EQ(back.dispatch.value, 1.0 / 3);
  EXPECT_EQ(back.phase, InferencePhase::prefill);
  EXPECT_EQ(back.largest_batch, 1LL << 40);
}

TEST(ResultRecord, AMalformedRecordThrows) {
  nlohmann::json j = record_json(full_run());
  j.erase("step_time");
  EXPECT_THROW(from_record_json<RunResult>(j), nlohmann::json::exception);
  EXPECT_THROW(unpack<RunResult>("not msgpack"), nlohmann::json::exception);
}

}  // namespace
}  // namespace codesim::metrics
