// Points in forked children; sweep, compare and search over them.
#include "sim/study/point_runs.hpp"

#include "sim/config/loader.hpp"
#include "sim/core/error.hpp"
#include "sim/metrics/result_record.hpp"
#include "sim/study/compare.hpp"
#include "sim/study/isolated.hpp"
#include "sim/study/sweep_plan.hpp"
#include "sim/study/training.hpp"

namespace codesim::study {
namespace {

std::vector<const PlannedPoint*> pointers(const std::vector<PlannedPoint>& points) {
  std::vector<const PlannedPoint*> out;
  for (const auto& p : points) {
    out.push_back(&p);
  }
  return out;
}

}  // namespace

std::vector<PointOutcome> simulate_points(const std::vector<const PlannedPoint*>& points,
                                          const PointRunOptions& o) {
  std::vector<IsolatedWork> works;
  for (const PlannedPoint* p : points) {
    works.push_back([p, &o] {
      const TrainingRun run =
          run_training(p->scenario, {.budget = o.budget, .fidelity = o.fidelity});
      return metrics::pack(run.result);
    });
  }
  std::vector<PointOutcome> out(points.size());
  const auto heard = [&](std::size_t i, const IsolatedOutcome& r) {
    PointOutcome& p = out[i];
    p.index = points[i]->index;
    p.values = points[i]->values;
    p.exit_code = r.exit_code;
    if (r.exit_code == 0) {
      p.result = metrics::unpack<metrics::RunResult>(r.payload);
    } else {
      p.error = r.error.empty() ? "exit code " + std::to_string(r.exit_code) : r.error;
    }
    if (o.on_done) {
      o.on_done(p);
    }
  };
  run_isolated(works, o.jobs, heard, o.stop);
  return out;
}

metrics::SweepResult run_sweep(const SweepPlan& plan, const PointRunOptions& o) {
  return sweep_result(plan, simulate_points(pointers(plan.points), o));
}

metrics::Comparison compare(const std::vector<std::string>& files, const PointRunOptions& o) {
  return compare(load_compared(files), files, o);
}

metrics::Comparison compare(const std::vector<config::Scenario>& scenarios,
                            const std::vector<std::string>& sources, const PointRunOptions& o) {
  std::vector<PlannedPoint> points;
  for (std::size_t i = 0; i < scenarios.size(); ++i) {
    require_training(scenarios[i], "comparisons");
    points.push_back({.index = i, .scenario = scenarios[i]});
  }
  metrics::Comparison out;
  const std::vector<PointOutcome> runs = simulate_points(pointers(points), o);
  for (std::size_t i = 0; i < sources.size(); ++i) {
    if (!runs[i].result) {
      throw core::SimulationError(sources[i] + ": " + runs[i].error);
    }
    out.push_back(compared(sources[i], *runs[i].result));
  }
  return out;
}

metrics::SearchResult search(const SearchPlan& plan, int top, const PointRunOptions& o,
                             const std::function<void(const std::string&)>& progress) {
  metrics::SearchResult result = screen(plan, o.budget, progress);
  result.top = top;
  std::vector<const PlannedPoint*> points;
  for (const std::size_t i : best(result, top)) {
    points.push_back(&plan.candidates[i].point);
  }
  PointRunOptions full = o;
  full.fidelity = metrics::Fidelity::full;
  for (const PointOutcome& p : simulate_points(points, full)) {
    add_full(result, p.index, p.result, p.error, plan.search.objective);
  }
  rank(result);
  return result;
}

}  // namespace codesim::study
