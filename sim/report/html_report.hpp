// Self-contained HTML reports (inline CSS and SVG, no scripts, nothing fetched): a run's step-time
// breakdown, link utilization and memory; a sweep's breakdown per point, its lines and network
// cost; at the bottom what was fitted and what predicted, the scenario and the codesim version.
#pragma once

#include <string>

#include "sim/metrics/run_result.hpp"
#include "sim/metrics/sweep_result.hpp"

namespace codesim::report {

// What the page shows besides the results.
struct PageFooter {
  std::string scenario_text;  // the scenario as run (YAML)
  std::string version;        // "codesim 0.3.0"
};

std::string run_html(const metrics::RunResult& r, const PageFooter& footer);

std::string sweep_html(const metrics::SweepResult& s, const PageFooter& footer);

}  // namespace codesim::report
