#include "sim/study/campaign_sweep.hpp"

#include <algorithm>
#include <optional>

#include "sim/core/error.hpp"
#include "sim/study/campaign.hpp"
#include "sim/study/search.hpp"
#include "sim/study/sweep_plan.hpp"

namespace codesim::study {
namespace {

// The key and the reason of each problem, on one line (a table cell); the file is the study's.
std::string one_line(const core::InputError& e) {
  std::string out;
  for (const core::Diagnostic& d : e.diagnostics()) {
    out += (out.empty() ? "" : "; ") +
           (d.key_path.empty() ? d.message : d.key_path + ": " + d.message);
  }
  return out;
}

// A point's campaign, or why it could not run.
metrics::CampaignSweepPoint campaign_point(const config::ScenarioSource& source,
                                           const std::vector<config::Setting>& values,
                                           std::vector<std::string> written,
                                           const CampaignOptions& o) {
  metrics::CampaignSweepPoint p{.values = std::move(written)};
  try {
    p.result = run_campaign(source.with(values), o);
  } catch (const core::InputError& e) {
    p.error = one_line(e);
  }
  return p;
}

int steps_simulated(const CampaignStepCache& cache) {
  int n = 0;
  for (const auto& [key, payloads] : cache.payloads) {
    n += static_cast<int>(payloads.size());
  }
  return n;
}

double objective_of(const metrics::CampaignResult& r, config::SearchObjective o) {
  switch (o) {
    case config::SearchObjective::days:
      return r.days.p50;
    case config::SearchObjective::cost_usd:
      return r.cost_usd.p50;
    case config::SearchObjective::gpu_hours:
      return r.gpu_hours.p50;
    case config::SearchObjective::energy_mwh:
      return r.energy_mwh.p50;
    case config::SearchObjective::tokens_per_day:
    case config::SearchObjective::tokens_per_day_per_usd:
      break;
  }
  return 0;
}

// A point to run: planned (its values as written), or why it cannot run.
struct Planned {
  const PlannedPoint* point;
  std::optional<std::string> rejected;
};

// The campaign at each planned point of `sweep` (a sweep's points or a search's candidates), the
// keys and points into `out`; points differing only in campaign keys share one step simulation.
void run_points(metrics::CampaignSweep& out, const config::ScenarioSource& source,
                const config::Sweep& sweep, const std::vector<Planned>& points,
                const std::string& word, const CampaignOptions& options,
                const std::function<void(const std::string&)>& progress) {
  for (const auto& axis : sweep.axes) {
    out.keys.push_back(axis.key);
  }
  CampaignStepCache cache;
  CampaignOptions o = options;
  o.cache = &cache;
  for (const Planned& p : points) {
    if (progress) {
      progress(word + " " + std::to_string(p.point->index + 1) + " of " +
               std::to_string(points.size()) + ": " + describe_values(sweep, *p.point));
    }
    if (p.rejected) {
      out.points.push_back(
          {.values = p.point->values, .result = std::nullopt, .error = *p.rejected});
      continue;
    }
    out.points.push_back(campaign_point(source, sweep.points[p.point->index], p.point->values, o));
  }
  out.steps_simulated = steps_simulated(cache);
}

}  // namespace

metrics::CampaignSweep run_campaign_sweep(const config::ScenarioSource& source,
                                          metrics::Fidelity fidelity, const Budget& budget,
                                          const std::function<void(const std::string&)>& progress) {
  const SweepPlan plan = plan_sweep(source);
  require_training(plan.base, "campaign");
  metrics::CampaignSweep out{.scenario = plan.base.name, .mode = plan.sweep.mode};
  std::vector<Planned> points;
  for (const PlannedPoint& point : plan.points) {
    points.push_back({&point, std::nullopt});
  }
  run_points(out, source, plan.sweep, points, "point", {.fidelity = fidelity, .budget = budget},
             progress);
  return out;
}

metrics::CampaignSweep search_campaigns(const config::ScenarioSource& source,
                                        metrics::Fidelity fidelity, const Budget& budget,
                                        const std::function<void(const std::string&)>& progress) {
  const SearchPlan plan = plan_campaign_search(source);
  const config::SearchObjective objective = plan.search.objective;
  metrics::CampaignSweep out{.scenario = plan.base.name,
                             .mode = core::SweepMode::cartesian,
                             .objective = std::string(config::search_objective_name(objective))};
  std::vector<Planned> candidates;
  for (const SearchCandidate& c : plan.candidates) {
    candidates.push_back(
        {&c.point, c.scenario ? std::nullopt : std::optional<std::string>(c.rejected)});
  }
  run_points(out, source, plan.search.candidates, candidates, "candidate",
             {.fidelity = fidelity, .budget = budget}, progress);
  // Least objective first; those that could not run after, in candidate order.
  std::stable_sort(out.points.begin(), out.points.end(),
                   [&](const metrics::CampaignSweepPoint& a, const metrics::CampaignSweepPoint& b) {
                     if (a.result && b.result) {
                       return objective_of(*a.result, objective) <
                              objective_of(*b.result, objective);
                     }
                     return a.result.has_value() && !b.result.has_value();
                   });
  return out;
}

}  // namespace codesim::study
