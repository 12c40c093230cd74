// Importing DeepSeek's profile trace, and malformed traces with their exact messages.
#include "sim/workload/chrome_import.hpp"

#include <gtest/gtest.h>

#include "sim/core/error.hpp"
#include "sim/workload/chrome_export.hpp"
#include "sim/workload/step_trace_json.hpp"
#include "sim/workload/timeline.hpp"
#include "tests/support/data_files.hpp"

namespace codesim::workload {
namespace {

using codesim::testing::kTrainTrace;

TEST(ChromeImport, DeepSeekProfileTrace) {
  // docs/model/deepseek-v3.md §9: 963 kernels on streams 7 (compute), 23 (weight gradients) and 27
  // (DeepEP, 20 SMs), one chunk pair of about 129 ms.
  const StepTrace t = import_chrome_trace_file(kTrainTrace);
  const TimelineSummary s = summarize(t, measured_timeline(t));
  EXPECT_EQ(s.kernels, 963);
  ASSERT_EQ(s.streams.size(), 3u);
  EXPECT_EQ(s.streams[0].stream, 7);
  EXPECT_EQ(s.streams[1].stream, 23);
  EXPECT_EQ(s.streams[2].stream, 27);
  EXPECT_NEAR(s.span_us, 129012, 1);
  EXPECT_GT(s.overlap_us, 0.9 * s.communication_busy_us);  // DualPipe hides the all-to-all
  for (const char* piece : {"attn(F)", "dispatch(F)", "mlp(F)", "combine(F)", "combine(B)",
                            "mlp(B)", "mlp(W)", "dispatch(B)", "attn(B)", "attn(W)"}) {
    EXPECT_TRUE(s.pieces.contains(piece)) << piece;
  }
  EXPECT_FALSE(s.pieces.contains(""));  // every kernel belongs to a piece
  for (const Op& op : t.ops) {
    if (op.op_class == cost::KernelClass::communication &&
        op.name.find("internode::dispatch<") != std::string::npos) {
      EXPECT_EQ(op.sms, 20);  // DeepEP kernels launched with 20 blocks = 20 SMs
    }
  }
  EXPECT_TRUE(validate(t).empty());
}

TEST(ChromeImport, PiecesChainForwardAndBackward) {
  // The first kernel of mlp(F) waits for the dispatch(F) before it (another stream).
  const StepTrace t = import_chrome_trace_file(kTrainTrace);
  bool found = false;
  for (const Op& op : t.ops) {
    if (op.tags.piece == "mlp(F)" && op.tags.layer == 0 && !op.deps.empty()) {
      for (int d : op.deps) {
        EXPECT_EQ(t.ops[d].tags.piece, "dispatch(F)");
        EXPECT_NE(t.ops[d].stream, op.stream);
      }
      found = true;
      break;
    }
  }
  EXPECT_TRUE(found);
}

TEST(ChromeImport, ExportedStepTraceReadsBack) {
  // Every op, stream and duration survives StepTrace JSON.
  const StepTrace t = import_chrome_trace_file(kTrainTrace);
  const StepTrace back = parse_step_trace(to_json(t).dump(), "t.json");
  ASSERT_EQ(back.ops.size(), t.ops.size());
  for (std::size_t i = 0; i < t.ops.size(); ++i) {
    EXPECT_EQ(back.ops[i].stream, t.ops[i].stream);
    EXPECT_EQ(back.ops[i].name, t.ops[i].name);
    EXPECT_EQ(back.ops[i].measured_us, t.ops[i].measured_us);
    EXPECT_EQ(back.ops[i].deps, t.ops[i].deps);
    EXPECT_EQ(back.ops[i].tags.piece, t.ops[i].tags.piece);
  }
}

TEST(ChromeImport, BeginEndPairsAndBareArrays) {
  // ph B/E kernels, a bare event array, no optional fields.
  const std::string text = R"([
 {"ph": "B", "cat": "kernel", "name": "gemm_a", "pid": 0, "tid": 7, "ts": 10, "args": {"stream": 7}},
 {"ph": "E", "pid": 0, "tid": 7, "ts": 30},
 {"ph": "X", "cat": "kernel", "name": "dpsk::ep::internode::dispatch", "pid": 0, "tid": 27, "ts": 15, "dur": 40,
  "args": {"stream": 27, "grid": [20, 1, 1]}}
])";
  const StepTrace t = import_chrome_trace(text, "mini.json");
  ASSERT_EQ(t.ops.size(), 2u);
  EXPECT_EQ(t.ops[0].measured_us, 20.0);
  EXPECT_EQ(t.ops[0].op_class, cost::KernelClass::gemm);
  EXPECT_EQ(t.ops[1].op_class, cost::KernelClass::communication);
  EXPECT_EQ(t.ops[1].sms, 20);
  const TimelineSummary s = summarize(t, measured_timeline(t));
  EXPECT_DOUBLE_EQ(s.span_us, 45);
  EXPECT_DOUBLE_EQ(s.overlap_us, 15);  // [15, 30] both run
}

std::string import_error_of(const std::string& text) {
  try {
    import_chrome_trace(text, "t.json");
  } catch (const core::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ChromeImportErrors, WordForWord) {
  EXPECT_EQ(import_error_of("{\"traceEvents\": [\n {\"ph\": \"X\", \"ts\": 1"),
            "t.json:2:21: error: invalid JSON: syntax error while parsing object - unexpected end "
            "of input; "
            "expected '}'");
  EXPECT_EQ(import_error_of("{\"events\": []}"),
            "t.json:1:1: error: traceEvents: not a Chrome trace: no traceEvents");
  EXPECT_EQ(import_error_of("{\"traceEvents\": {}}"),
            "t.json:1:1: error: traceEvents: expected an array of trace events");
  EXPECT_EQ(
      import_error_of("{\"traceEvents\": []}"),
      "t.json:1:1: error: traceEvents: no GPU kernels in the trace (events with cat \"kernel\")");
  EXPECT_EQ(import_error_of("{\"traceEvents\": [\n 42]}"),
            "t.json:2:2: error: traceEvents[0]: expected an event object, got 42");
  EXPECT_EQ(import_error_of("{\"traceEvents\": [\n {\"name\": \"k\"}]}"),
            "t.json:2:2: error: traceEvents[0].ph: missing or not a string");
  EXPECT_EQ(import_error_of("{\"traceEvents\": [\n {\"ph\": \"Q\"}]}"),
            "t.json:2:2: error: traceEvents[0].ph: unknown phase \"Q\"");
  EXPECT_EQ(
      import_error_of("{\"traceEvents\": [\n {\"ph\": \"X\", \"cat\": \"kernel\", \"ts\": \"10\", "
                      "\"dur\": 1}]}"),
      "t.json:2:2: error: traceEvents[0].ts: expected a number, got \"10\"");
  EXPECT_EQ(
      import_error_of("{\"traceEvents\": [\n {\"ph\": \"X\", \"cat\": \"kernel\", \"ts\": 10}]}"),
      "t.json:2:2: error: traceEvents[0].dur: missing");
  EXPECT_EQ(
      import_error_of(
          "{\"traceEvents\": [\n {\"ph\": \"X\", \"cat\": \"kernel\", \"ts\": 10, \"dur\": -5}]}"),
      "t.json:2:2: error: traceEvents[0].dur: must not be negative, got -5");
  EXPECT_EQ(import_error_of("{\"traceEvents\": [\n {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": "
                            "\"gemm\", \"ts\": 10, \"dur\": 5}]}"),
            "t.json:2:2: error: traceEvents[0].args.stream: kernel \"gemm\" has no stream");
  EXPECT_EQ(
      import_error_of("{\"traceEvents\": [\n {\"ph\": \"X\", \"cat\": \"kernel\", \"ts\": 10, "
                      "\"dur\": 5, \"args\": "
                      "{\"stream\": \"7\"}}]}"),
      "t.json:2:2: error: traceEvents[0].args.stream: expected an integer, got \"7\"");
  EXPECT_EQ(import_error_of("{\"traceEvents\": [\n {\"ph\": \"B\", \"cat\": \"user_annotation\", "
                            "\"name\": \"attn(F)\", "
                            "\"pid\": 1, \"tid\": 1, \"ts\": 5}]}"),
            "t.json:2:2: error: traceEvents[0]: begin event \"attn(F)\" (ph \"B\") has no end");
  EXPECT_EQ(
      import_error_of("{\"traceEvents\": [\n {\"ph\": \"E\", \"pid\": 1, \"tid\": 2, \"ts\": 5}]}"),
      "t.json:2:2: error: traceEvents[0]: end event (ph \"E\") without a begin on pid 1, tid 2");
}

TEST(ChromeImportErrors, NumberTooLarge) {
  // The fuzz_step_trace crash, for this reader too.
  EXPECT_EQ(import_error_of("{\"traceEvents\": [{\"ts\": 1e99999}]}"),
            "t.json: error: invalid JSON: number overflow parsing '1e99999'");
}

TEST(ChromeImportErrors, EveryProblemIsListed) {
  EXPECT_EQ(import_error_of("{\"traceEvents\": [\n {\"ph\": \"Q\"},\n {\"ph\": \"X\", \"cat\": "
                            "\"kernel\", \"ts\": 1}]}"),
            "t.json:2:2: error: traceEvents[0].ph: unknown phase \"Q\"\n"
            "t.json:3:2: error: traceEvents[1].dur: missing");
}

TEST(ChromeImportErrors, MissingFile) {
  try {
    import_chrome_trace_file("no/such/trace.json");
    FAIL();
  } catch (const core::InputError& e) {
    EXPECT_EQ(std::string(e.what()), "no/such/trace.json: error: cannot read the trace file");
  }
}

TEST(ChromeExport, PowerCountersStepWithTheComputeStream) {
  // Rank 0 computes over [0, 10) and [10, 15) us (touching: one busy stretch) and [20, 30); its
  // communication stream's op over [15, 25) does not count. The board power counter steps to
  // 700 W at 0, back to 120 W at 15, to 700 W at 20 and to 120 W at 30; the clock counter holds
  // 1500 MHz from 0 to the step's end (30 us).
  StepTrace t;
  t.ops = {{.id = 0, .rank = 0, .stream = 0}, {.id = 1, .rank = 0, .stream = 0},
           {.id = 2, .rank = 0, .stream = 1}, {.id = 3, .rank = 0, .stream = 0}};
  const Timeline timeline{.start_us = {0, 10, 15, 20}, .duration_us = {10, 5, 10, 10}};
  const auto j = chrome_trace(
      t, timeline, {{.rank = 0, .clock_mhz = 1500, .computing_w = 700, .waiting_w = 120}});
  std::vector<std::pair<double, double>> power;
  std::vector<std::pair<double, double>> clock;
  for (const auto& e : j.at("traceEvents")) {
    if (e.at("ph") == "C" && e.at("name") == "board power (W)") {
      power.emplace_back(e.at("ts").get<double>(), e.at("args").at("W").get<double>());
    } else if (e.at("ph") == "C") {
      clock.emplace_back(e.at("ts").get<double>(), e.at("args").at("MHz").get<double>());
    }
  }
  EXPECT_EQ(power, (std::vector<std::pair<double, double>>{
                       {0, 120}, {0, 700}, {15, 120}, {20, 700}, {30, 120}}));
  EXPECT_EQ(clock, (std::vector<std::pair<double, double>>{{0, 1500}, {30, 1500}}));
  // A memory track: a "memory (GB)" counter at each of its points.
  const auto with_memory =
      chrome_trace(t, timeline, {}, {{.rank = 0, .points = {{0, 30e9}, {15, 42e9}, {30, 30e9}}}});
  std::vector<std::pair<double, double>> memory;
  for (const auto& e : with_memory.at("traceEvents")) {
    if (e.at("ph") == "C") {
      EXPECT_EQ(e.at("name"), "memory (GB)");
      memory.emplace_back(e.at("ts").get<double>(), e.at("args").at("GB").get<double>());
    }
  }
  EXPECT_EQ(memory, (std::vector<std::pair<double, double>>{{0, 30}, {15, 42}, {30, 30}}));
  // Without tracks, no counters.
  const auto bare = chrome_trace(t, timeline);
  for (const auto& e : bare.at("traceEvents")) {
    EXPECT_NE(e.at("ph"), "C");
  }
}

}  // namespace
}  // namespace codesim::workload
