// Search candidates, their screening with the fast tier, and the ranking.
#include "sim/study/search.hpp"

#include <algorithm>
#include <numeric>

#include "sim/config/dump.hpp"
#include "sim/core/error.hpp"
#include "sim/core/text.hpp"
#include "sim/study/training.hpp"

namespace codesim::study {
namespace {

// "key: message" of an input error's first problem: why a candidate is rejected.
std::string reason(const core::InputError& e) {
  if (e.diagnostics().empty()) {
    return e.what();
  }
  const core::Diagnostic& d = e.diagnostics().front();
  return d.key_path.empty() ? d.message : d.key_path + ": " + d.message;
}

// The search of `source` whose objective ranks runs (`campaign`) or steps; the other kind is
// refused at search.objective.
SearchPlan plan_of(const config::ScenarioSource& source, bool campaign) {
  const std::string& path = source.path;
  const config::FlatScenario flat = config::read_source(source);
  SearchPlan plan{config::decode_scenario(flat, path), {}, {}};
  require_training(plan.base, "searches");
  const auto search = config::read_search(flat);
  if (!search) {
    throw core::InputError(core::Diagnostic{
        {path, 0, 0},
        "search",
        "the scenario has no search: section",
        "add one, e.g. search: {keys: {parallelism.pp: [8, 16]}} (scenarios/SCHEMA.md)"});
  }
  plan.search = *search;
  const std::string objective(config::search_objective_name(search->objective));
  if (config::is_campaign_objective(search->objective) != campaign) {
    throw core::InputError(core::Diagnostic{
        {path, 0, 0},
        "search.objective",
        campaign ? "'" + objective + "' ranks steps; a campaign search ranks whole runs"
                 : "'" + objective + "' ranks whole runs; codesim search ranks steps",
        campaign ? "objective: days, cost_usd, gpu_hours or energy_mwh (or codesim search)"
                 : "codesim campaign --search for run objectives; here tokens_per_day or "
                   "tokens_per_day_per_usd"});
  }
  for (std::size_t i = 0; i < search->candidates.points.size(); ++i) {
    SearchCandidate c{planned_point(i, search->candidates.points[i]), std::nullopt, {}};
    try {
      c.scenario = config::decode_scenario(flat, path, search->candidates.points[i]);
      c.point.scenario_yaml = config::to_yaml(*c.scenario);
      c.point.scenario = *c.scenario;
    } catch (const core::InputError& e) {
      c.rejected = reason(e);
    }
    plan.candidates.push_back(std::move(c));
  }
  return plan;
}

}  // namespace

SearchPlan plan_search(const config::ScenarioSource& source) {
  return plan_of(source, false);
}

SearchPlan plan_campaign_search(const config::ScenarioSource& source) {
  return plan_of(source, true);
}

double objective_of(const metrics::RunResult& r, config::SearchObjective objective) {
  if (objective == config::SearchObjective::tokens_per_day_per_usd) {
    return r.network.cost_usd > 0 ? r.tokens_per_day / r.network.cost_usd : 0;
  }
  return r.tokens_per_day;
}

metrics::SearchResult screen(const SearchPlan& plan, const Budget& budget,
                             const std::function<void(const std::string&)>& progress) {
  const config::Search& search = plan.search;
  metrics::SearchResult r{.scenario = plan.base.name,
                          .objective = std::string(config::search_objective_name(search.objective)),
                          .max_network_usd = search.max_network_usd,
                          .top = search.top,
                          .keys = {},
                          .entries = {}};
  for (const auto& a : search.candidates.axes) {
    r.keys.push_back(a.key);
  }
  const std::string base_yaml = config::to_yaml(plan.base);
  RoutingCache routing;
  for (const auto& c : plan.candidates) {
    metrics::SearchEntry e{.values = c.point.values, .rejected = c.rejected};
    e.base = c.scenario && c.point.scenario_yaml == base_yaml;
    if (c.scenario) {
      try {
        e.fast = run_training(*c.scenario, {.budget = budget,
                                            .fidelity = metrics::Fidelity::fast,
                                            .routing_cache = &routing})
                     .result;
      } catch (const core::InputError& err) {
        e.rejected = reason(err);
      } catch (const core::SimulationError& err) {
        e.rejected = err.what();
      }
    }
    if (e.fast && search.max_network_usd && e.fast->network.cost_usd > *search.max_network_usd) {
      e.rejected = "search.max_network_usd: the network costs " +
                   core::fixed(e.fast->network.cost_usd / 1e6, 2) + " M$, over the bound of " +
                   core::fixed(*search.max_network_usd / 1e6, 2) + " M$";
    }
    if (e.fast && e.rejected.empty() && !e.fast->memory.fits()) {
      const metrics::MemoryUse& m = e.fast->memory;
      e.rejected = "memory: the first rank needs " + core::fixed(m.needed().value / 1e9, 1) +
                   " GB of its " + core::fixed(m.capacity.value / 1e9, 0) + " GB, over by " +
                   core::fixed((m.needed() - m.capacity).value / 1e9, 1) + " GB";
    }
    if (e.fast && e.rejected.empty()) {
      e.objective = objective_of(*e.fast, search.objective);
    }
    if (progress) {
      progress(std::to_string(c.point.index + 1) + "/" + std::to_string(plan.candidates.size()) +
               " " + describe_values(search.candidates, c.point) + ": " +
               (e.rejected.empty() ? "step " + core::fixed(e.fast->step_time.value, 3) + " s"
                                   : "rejected (" + e.rejected + ")"));
    }
    r.entries.push_back(std::move(e));
  }
  return r;
}

std::vector<std::size_t> best(const metrics::SearchResult& screened, int k) {
  std::vector<std::size_t> kept;
  for (std::size_t i = 0; i < screened.entries.size(); ++i) {
    if (screened.entries[i].rejected.empty()) {
      kept.push_back(i);
    }
  }
  std::stable_sort(kept.begin(), kept.end(), [&](std::size_t a, std::size_t b) {
    return screened.entries[a].objective > screened.entries[b].objective;
  });
  kept.resize(std::min(kept.size(), static_cast<std::size_t>(std::max(0, k))));
  return kept;
}

void add_full(metrics::SearchResult& r, std::size_t i, std::optional<metrics::RunResult> full,
              const std::string& error, config::SearchObjective objective) {
  metrics::SearchEntry& e = r.entries.at(i);
  e.full = std::move(full);
  e.full_error = error;
  if (e.full) {
    e.objective = objective_of(*e.full, objective);
  }
}

std::vector<std::size_t> rank(metrics::SearchResult& r) {
  std::vector<std::size_t> order(r.entries.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const auto& x = r.entries[a];
    const auto& y = r.entries[b];
    if (x.rejected.empty() != y.rejected.empty()) {
      return x.rejected.empty();
    }
    if (x.full.has_value() != y.full.has_value()) {
      return x.full.has_value();  // simulated in full ranks above screened only
    }
    return x.objective > y.objective;
  });
  std::vector<metrics::SearchEntry> sorted;
  for (const std::size_t i : order) {
    sorted.push_back(std::move(r.entries[i]));
  }
  r.entries = std::move(sorted);
  return order;
}

}  // namespace codesim::study
