// A study's table as typed cells: the one column schema that the CLI's CSV files and Python's
// DataFrames share (a column's name is its CSV header; units in the names: step_time_s).
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "sim/metrics/campaign_sweep.hpp"
#include "sim/metrics/inference_result.hpp"
#include "sim/metrics/run_result.hpp"
#include "sim/metrics/search_result.hpp"
#include "sim/metrics/sweep_result.hpp"

namespace codesim::report {

// Empty (a failed point's figures), a count, a figure, or text (names, errors, swept values as
// written: "450GBps").
using Cell = std::variant<std::monostate, long long, double, std::string>;

struct Frame {
  std::vector<std::string> columns;
  std::vector<std::vector<Cell>> rows;  // each as long as `columns`
};

// CSV (RFC 4180): the header, then a line per row; counts in decimal, figures at full precision
// (core::format_number), empty cells empty.
std::string frame_csv(const Frame& f);

// One row: scenario, then every step column (report/columns.hpp).
Frame run_frame(const metrics::RunResult& r);

// One row: scenario, phase, mode, then every inference column.
Frame inference_frame(const metrics::InferenceResult& r);

// point, the varied keys, the step columns, error; one row per point, a failed point's figures
// empty.
Frame sweep_frame(const metrics::SweepResult& s);
// Its columns for the varied `keys`, and point `index`'s row (a point heard as it ends).
std::vector<std::string> sweep_columns(const std::vector<std::string>& keys);
std::vector<Cell> sweep_row(std::size_t index, const metrics::SweepPoint& p);

// rank, the searched keys, base, tier, step_time_s, tokens_per_day, mfu_causal, memory_gb,
// network_usd, objective, fast_step_time_s, rejected; one row per configuration, best first; a
// rejected one has empty figures and its reason.
Frame search_frame(const metrics::SearchResult& s);

// point (a sweep's, from 0) or rank (a search's, from 1, best first), the varied keys, then the
// run's figures: step_time_s, checkpoint_interval_s, mean_restart_s, mtbf_h, each of days,
// gpu_hours, interruptions, cost_usd and energy_mwh as _p10, _p50, _p90 and _expected,
// ettr_mean, ettr_expected, checkpoints, and error; a point that could not run has empty figures
// and its reason.
Frame campaign_sweep_frame(const metrics::CampaignSweep& s);

}  // namespace codesim::report
