// Self-contained HTML reports (inline CSS and SVG, no scripts, nothing fetched): a run's step-time
// breakdown, link utilization and memory; a sweep's breakdown per point, its lines and network
// cost; at the bottom what was fitted and what predicted, the scenario and the codesim version.
#pragma once

#include <string>

#include "sim/metrics/inference_result.hpp"
#include "sim/metrics/run_result.hpp"
#include "sim/metrics/sweep_result.hpp"
#include "sim/report/html_page.hpp"

namespace codesim::report {

std::string run_html(const metrics::RunResult& r, const PageFooter& footer);

std::string sweep_html(const metrics::SweepResult& s, const PageFooter& footer);

// An inference step: headline, per-layer pieces, busy shares, memory, every figure, the notes.
std::string inference_html(const metrics::InferenceResult& r, const PageFooter& footer);

}  // namespace codesim::report
