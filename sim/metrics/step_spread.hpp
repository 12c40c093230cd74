// A training step under variability (sim/variability): the steps drawn, each replica at its
// drawn pace, against the folded step where every replica is identical.
#pragma once

#include <vector>

#include "sim/core/units.hpp"

namespace codesim::metrics {

struct StepSpread {
  core::Seconds identical;  // the folded step: every replica identical
  core::Seconds mean;
  core::Seconds p10;
  core::Seconds p50;
  core::Seconds p90;
  int steps = 0;
  int units = 0;           // per rank: groups of GPUs TP, CP and EP bind
  int units_replayed = 0;  // per step; fewer than units: the slowest by order statistics
  int gpus = 0;
  double slow_gpus = 0;              // in a fail-slow episode, mean per step
  double slow_links = 0;             // NICs likewise
  std::vector<double> step_times_s;  // in draw order
};

}  // namespace codesim::metrics
