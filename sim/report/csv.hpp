// CSV (RFC 4180) of a run or a sweep: one row per step, the step columns (report/columns.hpp).
#pragma once

#include <string>
#include <vector>

#include "sim/metrics/inference_result.hpp"
#include "sim/metrics/run_result.hpp"
#include "sim/metrics/search_result.hpp"
#include "sim/metrics/sweep_result.hpp"

namespace codesim::report {

// One CSV line (RFC 4180: a field quoted when it holds a comma, a quote or a line break; CRLF).
std::string csv_row(const std::vector<std::string>& cells);

// A header row and one row: scenario, then every step column.
std::string run_csv(const metrics::RunResult& r);

// A header row and one row: scenario, phase, mode, then every inference column.
std::string inference_csv(const metrics::InferenceResult& r);

// A header row (point, the varied keys, the step columns, error) and one row per point; a failed
// point has empty step columns and its error.
std::string sweep_csv(const metrics::SweepResult& s);

// A header row (rank, the searched keys, base, tier, step_time_s, tokens_per_day, mfu_causal,
// memory_gb, network_usd, objective, fast_step_time_s, rejected) and one row per configuration,
// best first; a rejected one has empty figures and its reason.
std::string search_csv(const metrics::SearchResult& s);

}  // namespace codesim::report
