// Sweep points, their command lines, the reuse rule and the result they make.
#include "sim/study/sweep_plan.hpp"

#include "sim/config/dump.hpp"
#include "sim/core/error.hpp"

namespace codesim::study {

SweepPlan plan_sweep(const config::ScenarioSource& source) {
  const std::string& path = source.path;
  const config::FlatScenario flat = config::read_source(source);
  SweepPlan plan{config::decode_scenario(flat, path), {}, {}};
  const auto sweep = config::read_sweep(flat);
  if (!sweep) {
    throw core::InputError(core::Diagnostic{
        {path, 0, 0},
        "sweep",
        "the scenario has no sweep: section",
        "add one, e.g. sweep: {routing.node_limit: [1, 2, 4, 8]} (scenarios/SCHEMA.md)"});
  }
  plan.sweep = *sweep;
  // Every point decodes before any runs: a bad value fails the sweep at once.
  const std::vector<config::Scenario> scenarios = config::load_sweep_points(flat, path, *sweep);
  for (const auto& s : scenarios) {
    require_training(s, "sweeps");
  }
  for (std::size_t i = 0; i < sweep->points.size(); ++i) {
    PlannedPoint point = planned_point(i, sweep->points[i]);
    point.scenario_yaml = config::to_yaml(scenarios[i]);
    point.scenario = scenarios[i];
    plan.points.push_back(std::move(point));
  }
  return plan;
}

PlannedPoint planned_point(std::size_t index, const std::vector<config::Setting>& values) {
  PlannedPoint point{.index = index};
  for (const auto& s : values) {
    point.values.push_back(s.text());
  }
  return point;
}

void require_training(const config::Scenario& s, const std::string& what) {
  if (s.workload.kind != config::WorkloadKind::train) {
    config::scenario_error(s, "workload.kind",
                           what + " report training steps only so far; a " +
                               std::string(config::enum_name(s.workload.kind)) +
                               " step is reported by codesim run",
                           "run each inference scenario with codesim run");
  }
}

bool reusable(const PlannedPoint& point, const std::string& stored_scenario_yaml,
              int stored_exit_code) {
  return stored_scenario_yaml == point.scenario_yaml &&
         (stored_exit_code == 0 || stored_exit_code == 2);
}

std::string describe_values(const config::Sweep& sweep, const PlannedPoint& point) {
  std::string out;
  for (std::size_t k = 0; k < sweep.axes.size(); ++k) {
    out += (k == 0 ? "" : ", ") + sweep.axes[k].key + "=" + point.values[k];
  }
  return out;
}

metrics::SweepResult sweep_result(const SweepPlan& plan,
                                  const std::vector<PointOutcome>& outcomes) {
  metrics::SweepResult r{plan.base.name, plan.sweep.mode, {}, {}};
  for (const auto& a : plan.sweep.axes) {
    r.keys.push_back(a.key);
  }
  r.points.resize(plan.points.size());
  for (const auto& o : outcomes) {
    auto& p = r.points.at(o.index);
    p.values = o.values;
    p.result = o.result;
    p.error = o.error;
  }
  return r;
}

}  // namespace codesim::study
