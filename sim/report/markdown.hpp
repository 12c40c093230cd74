// Markdown (GitHub tables) of a run or a sweep, for pasting into design documents.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "sim/metrics/inference_result.hpp"
#include "sim/metrics/run_result.hpp"
#include "sim/metrics/sweep_result.hpp"

namespace codesim::report {

// A table row (pipes in cells escaped) and the rule under a header of `columns` cells, the first
// `left` of them left-aligned.
std::string md_row(const std::vector<std::string>& cells);
std::string md_rule(std::size_t columns, std::size_t left);

// The headline, the breakdown, the busiest links, memory and the notes.
std::string run_markdown(const metrics::RunResult& r);

// The headline, a figure / value table (report/columns.hpp), what bounds the step, the notes.
std::string inference_markdown(const metrics::InferenceResult& r);

// One row per point: the varied values and the step columns (report/columns.hpp) people read.
std::string sweep_markdown(const metrics::SweepResult& s);

}  // namespace codesim::report
