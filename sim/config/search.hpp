// The `search:` section of a scenario: the configurations to screen (key paths with candidate
// values, every combination), optional bounds, and what to maximize.
//
//   search:
//     objective: tokens_per_day        # or tokens_per_day_per_usd (per network dollar); for
//                                      # codesim campaign --search: days, cost_usd, gpu_hours
//                                      # or energy_mwh (the run's p50, least first)
//     max_network_usd: 2.0e7           # optional: reject configurations whose network costs more
//     top: 10                          # simulated in full after the fast screening
//     keys:
//       parallelism.pp: [8, 16]
//       routing.node_limit: [2, 4, 8]
//
// Memory fit and divisibility are always checked (a configuration that does not decode or fit
// is rejected with its reason).
#pragma once

#include <optional>
#include <string_view>

#include "sim/config/sweep.hpp"
#include "sim/config/yaml_source.hpp"

namespace codesim::config {

enum class SearchObjective {
  tokens_per_day,
  tokens_per_day_per_usd,
  days,
  cost_usd,
  gpu_hours,
  energy_mwh
};
std::string_view search_objective_name(SearchObjective o);
// Whether the objective ranks whole runs (codesim campaign --search) rather than steps.
bool is_campaign_objective(SearchObjective o);

struct Search {
  Sweep candidates;  // cartesian over search.keys
  SearchObjective objective = SearchObjective::tokens_per_day;
  std::optional<double> max_network_usd;
  int top = 10;
};

// The search the scenario declares, or none. Throws core::InputError with every problem.
std::optional<Search> read_search(const FlatScenario& flat);

}  // namespace codesim::config
