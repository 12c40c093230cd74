// A training step under variability (sim/variability): the steps drawn, each replica at its
// drawn pace, against the folded step where every replica is identical.
#pragma once

#include <vector>

#include "sim/core/units.hpp"
#include "sim/metrics/breakdown.hpp"

namespace codesim::metrics {

struct StepSpread {
  core::Seconds identical;  // the folded step: every replica identical
  core::Seconds mean;
  core::Seconds p10;
  core::Seconds p50;
  core::Seconds p90;
  int steps = 0;           // drawn
  int units = 0;           // per rank: groups of GPUs TP, CP and EP bind
  int units_replayed = 0;  // per step; fewer than units: the slowest by order statistics
  int gpus = 0;
  double slow_gpus = 0;              // in a fail-slow episode, mean per step
  double slow_links = 0;             // NICs likewise
  // The first rank's (its first replayed GPU's) step by chunk kind, weighted mean over the draws.
  Breakdown breakdown;
  // In draw order, each with its weight (steps are drawn by stratum of how many parts are slow,
  // sim/variability/speed_draw.hpp): the mean and percentiles are weighted.
  std::vector<double> step_times_s;
  std::vector<double> step_weights;
};

}  // namespace codesim::metrics
