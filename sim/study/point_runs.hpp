// Training steps of planned points, each simulated in a forked child of this process
// (isolated.hpp: SimGrid allows one engine per process), the typed results back; and the studies
// made of them: sweep, compare, search.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sim/metrics/comparison.hpp"
#include "sim/metrics/search_result.hpp"
#include "sim/metrics/sweep_result.hpp"
#include "sim/study/budget.hpp"
#include "sim/study/isolated.hpp"
#include "sim/study/search.hpp"
#include "sim/study/sweep_plan.hpp"

namespace codesim::study {

struct PointRunOptions {
  int jobs = 2;  // children at a time
  metrics::Fidelity fidelity = metrics::Fidelity::full;
  Budget budget;
  std::function<void(const PointOutcome&)> on_done;  // hears each point as it ends; may be empty
  StopAsked stop;  // true stops the children (run_isolated throws Stopped); may be empty
};

// Each point's training step; outcomes in the order of `points`.
std::vector<PointOutcome> simulate_points(const std::vector<const PlannedPoint*>& points,
                                          const PointRunOptions& o = {});

// Every point of the sweep.
metrics::SweepResult run_sweep(const SweepPlan& plan, const PointRunOptions& o = {});

// The scenarios of `files` side by side (load_compared first: a typo in the last fails before
// any runs). Throws core::SimulationError naming the file of a run that fails.
metrics::Comparison compare(const std::vector<std::string>& files, const PointRunOptions& o = {});

// Loaded scenarios side by side (training steps: require_training), `sources[i]` saying where
// the i-th came from (its file, and the settings over it); a failed run throws as above.
metrics::Comparison compare(const std::vector<config::Scenario>& scenarios,
                            const std::vector<std::string>& sources, const PointRunOptions& o = {});

// Every candidate screened by the fast tier, the best `top` simulated in full (o.fidelity is
// ignored), ranked. `progress` hears one line per screened candidate; may be empty.
metrics::SearchResult search(const SearchPlan& plan, int top, const PointRunOptions& o = {},
                             const std::function<void(const std::string&)>& progress = {});

}  // namespace codesim::study
