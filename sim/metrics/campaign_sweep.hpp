// What a campaign sweep or search gives (`codesim campaign --sweep` / `--search`): per point of
// the scenario's sweep: section (or candidate of its search: keys), the values of the varied keys
// and the run's campaign (or why it could not run).
// Plain data; sim/study fills it, sim/report writes it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/core/sweep_mode.hpp"
#include "sim/metrics/campaign_result.hpp"

namespace codesim::metrics {

struct CampaignSweepPoint {
  std::vector<std::string> values;  // one per varied key, as written
  std::optional<CampaignResult> result;
  std::string error;  // why the point could not run (a job that cannot progress, ...)
};

struct CampaignSweep {
  std::string scenario;
  core::SweepMode mode = core::SweepMode::cartesian;
  std::string objective;  // a search's (days, cost_usd, ...): points ranked by its p50, least
                          // first, those that could not run last; empty for a sweep
  std::vector<std::string> keys;
  std::vector<CampaignSweepPoint> points;
  int steps_simulated = 0;  // distinct steps: points differing only in campaign keys share one
};

}  // namespace codesim::metrics
