// A step's figures as named columns: one CSV/Markdown row per run or sweep point, and the series
// a sweep chart can plot.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sim/metrics/inference_result.hpp"
#include "sim/metrics/run_result.hpp"

namespace codesim::report {

struct Column {
  std::string name;   // CSV header: "step_time_s"
  std::string label;  // for people: "step time (s)"
  std::function<double(const metrics::RunResult&)> value;
};

// step_time_s, tokens_per_day, TFLOPS and MFU, the breakdown, exposed communication, IB bytes,
// memory, network size and cost.
const std::vector<Column>& step_columns();

// The column named `name`; throws std::out_of_range for an unknown one.
const Column& step_column(const std::string& name);

// An inference step's figures as named columns (CSV, Markdown, HTML of prefill and decode runs).
struct InferenceColumn {
  std::string name;   // "tpot_ms"
  std::string label;  // "TPOT (ms)"
  std::function<double(const metrics::InferenceResult&)> value;
};

// step_time_ms, TPOT (with and without MTP), TTFT, tokens per second, per-layer pieces, busy
// shares, memory.
const std::vector<InferenceColumn>& inference_columns();

}  // namespace codesim::report
