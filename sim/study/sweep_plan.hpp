// A sweep before and after it runs: every point decoded and checked up front, which stored
// results a rerun may reuse, and the SweepResult the points' outcomes make (point_runs.hpp runs
// them).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/config/loader.hpp"
#include "sim/config/sweep.hpp"
#include "sim/metrics/sweep_result.hpp"

namespace codesim::study {

struct PlannedPoint {
  std::size_t index = 0;
  std::vector<std::string> values;  // the varied keys' values, as written
  std::string scenario_yaml;        // the resolved scenario: a stored point is reused only if equal
  config::Scenario scenario;        // decoded (a search candidate that does not decode: default)
};

struct SweepPlan {
  config::Scenario base;
  config::Sweep sweep;
  std::vector<PlannedPoint> points;
};

// Point `index` of a study with the varied keys' `values`, as written. Its scenario is the
// caller's to fill.
PlannedPoint planned_point(std::size_t index, const std::vector<config::Setting>& values);

// Reads the scenario `source` gives, each point's values over it. Throws core::InputError when
// the scenario has no sweep: section or any point does not decode.
SweepPlan plan_sweep(const config::ScenarioSource& source);

// Sweeps and comparisons report training steps; an inference scenario is refused at its
// workload.kind (what `study` names the reports for).
void require_training(const config::Scenario& s, const std::string& what);

// A point stored by an earlier run is reused when it ran the same resolved scenario to a result
// or to an input error (exit 0 or 2: say, it does not fit); a crash, a kill or a failed start runs
// again.
bool reusable(const PlannedPoint& point, const std::string& stored_scenario_yaml,
              int stored_exit_code);

// "key=value, key=value" of a point, for progress lines.
std::string describe_values(const config::Sweep& sweep, const PlannedPoint& point);

// What each point gave: its result, or why it failed.
struct PointOutcome {
  std::size_t index = 0;
  std::vector<std::string> values;
  std::optional<metrics::RunResult> result;
  std::string error;
  int exit_code = 0;  // as `codesim run` would exit: 0 ok, 2 bad input, 1 failed, -1 killed
};

metrics::SweepResult sweep_result(const SweepPlan& plan, const std::vector<PointOutcome>& outcomes);

}  // namespace codesim::study
