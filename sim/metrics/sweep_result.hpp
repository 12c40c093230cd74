// What a sweep gives: per point, the values of the varied keys and the step it simulated (or why
// it could not). Plain data; sim/cli fills it, sim/report writes it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/core/sweep_mode.hpp"
#include "sim/metrics/run_result.hpp"

namespace codesim::metrics {

struct SweepPoint {
  std::vector<std::string> values;  // one per varied key, as written ("450GBps")
  std::optional<RunResult> result;  // none when the point failed
  std::string error;                // why it failed
};

struct SweepResult {
  std::string scenario;  // the base scenario's name
  core::SweepMode mode = core::SweepMode::cartesian;
  std::vector<std::string> keys;  // the varied key paths
  std::vector<SweepPoint> points;
};

}  // namespace codesim::metrics
