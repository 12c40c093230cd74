#include "sim/study/campaign_sweep.hpp"

#include "sim/core/error.hpp"
#include "sim/study/campaign.hpp"
#include "sim/study/sweep_plan.hpp"

namespace codesim::study {

metrics::CampaignSweep run_campaign_sweep(const std::string& path,
                                          const std::vector<config::Setting>& settings,
                                          metrics::Fidelity fidelity, const Budget& budget,
                                          const std::function<void(const std::string&)>& progress) {
  const SweepPlan plan = plan_sweep(path, settings);
  require_training(plan.base, "campaign");
  metrics::CampaignSweep out{.scenario = plan.base.name,
                             .mode = std::string(config::sweep_mode_name(plan.sweep.mode))};
  for (const auto& axis : plan.sweep.axes) {
    out.keys.push_back(axis.key);
  }
  CampaignStepCache cache;
  for (const PlannedPoint& point : plan.points) {
    std::vector<config::Setting> with = settings;
    const auto& values = plan.sweep.points[point.index];
    with.insert(with.end(), values.begin(), values.end());
    if (progress) {
      progress("point " + std::to_string(point.index + 1) + " of " +
               std::to_string(plan.points.size()) + ": " + describe_values(plan.sweep, point));
    }
    metrics::CampaignSweepPoint p{.values = point.values};
    try {
      p.result =
          run_campaign(path, with, {.fidelity = fidelity, .budget = budget, .cache = &cache});
    } catch (const core::InputError& e) {
      // The key and the reason, on one line (a table cell); the file is the sweep's own.
      for (const core::Diagnostic& d : e.diagnostics()) {
        p.error += (p.error.empty() ? "" : "; ") +
                   (d.key_path.empty() ? d.message : d.key_path + ": " + d.message);
      }
    }
    out.points.push_back(std::move(p));
  }
  for (const auto& [key, payloads] : cache.payloads) {
    out.steps_simulated += static_cast<int>(payloads.size());
  }
  return out;
}

}  // namespace codesim::study
