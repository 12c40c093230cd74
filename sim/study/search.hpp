// `codesim search`: every combination of a scenario's `search:` keys screened with the fast tier
// (in this process; routing plans shared among configurations that route alike), rejected when
// it does not decode, does not fit or breaks a bound; the best `top` then simulated in full (each
// in a child process: SimGrid allows one engine per process) and ranked again.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/config/search.hpp"
#include "sim/metrics/search_result.hpp"
#include "sim/study/budget.hpp"
#include "sim/study/sweep_plan.hpp"

namespace codesim::study {

struct SearchCandidate {
  PlannedPoint point;                        // values, resolved scenario
  std::optional<config::Scenario> scenario;  // none when it does not decode
  std::string rejected;                      // why it does not decode
};

struct SearchPlan {
  config::Scenario base;
  config::Search search;
  std::vector<SearchCandidate> candidates;
};

// Reads the scenario `source` gives, each candidate's values over it. Throws core::InputError when
// the scenario has no search: section or the section is malformed; a candidate that does not decode
// is kept, rejected with its first problem.
SearchPlan plan_search(const config::ScenarioSource& source);
// The same for a search of whole runs (codesim campaign --search: objective days, cost_usd,
// gpu_hours or energy_mwh); a step objective is refused, and plan_search refuses run objectives.
SearchPlan plan_campaign_search(const config::ScenarioSource& source);

// The fast tier over every candidate that decodes; each result is checked against the memory,
// task and network-cost bounds. `progress` hears one line per candidate. The entries come back
// in candidate order (rank() orders them).
metrics::SearchResult screen(const SearchPlan& plan, const Budget& budget,
                             const std::function<void(const std::string&)>& progress);

// The objective of a result.
double objective_of(const metrics::RunResult& r, config::SearchObjective objective);

// Candidate indices of the best `k` screened entries (by their fast objective).
std::vector<std::size_t> best(const metrics::SearchResult& screened, int k);

// Adds a full simulation's outcome to entry `i` (a result, or why it failed).
void add_full(metrics::SearchResult& r, std::size_t i, std::optional<metrics::RunResult> full,
              const std::string& error, config::SearchObjective objective);

// Best first: kept entries by objective (full over fast), then the rejected in candidate order.
// Returns the candidate index of each entry in its new place.
std::vector<std::size_t> rank(metrics::SearchResult& r);

}  // namespace codesim::study
