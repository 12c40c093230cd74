// A training run from the scenario's step (`codesim campaign`): the step simulated (and, on a
// fabric that routes around a failed plane, the step with one plane failed), then the run's
// failures, checkpoints and restarts over the tokens to train by Monte Carlo and in expectation
// (sim/campaign); days, GPU-hours, ETTR, interruptions, energy and cost.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sim/campaign/run_model.hpp"
#include "sim/config/loader.hpp"
#include "sim/metrics/campaign_result.hpp"
#include "sim/metrics/run_result.hpp"
#include "sim/study/budget.hpp"

namespace codesim::study {

// Steps already simulated (the children's answers), by the scenario they ran with its campaign
// keys left out (they do not change the step) and the tier: campaigns that differ only in those
// keys simulate their step once.
struct CampaignStepCache {
  std::map<std::string, std::vector<std::string>> payloads;
};

// Where a campaign's time went (codesim campaign --bench).
struct CampaignBench {
  core::Seconds steps;        // the step simulations in children (none when cached)
  core::Seconds monte_carlo;  // the run model: Monte Carlo and expectation
  int steps_simulated = 0;
};

struct CampaignOptions {
  metrics::Fidelity fidelity = metrics::Fidelity::fast;  // of the step simulations
  Budget budget;
  CampaignStepCache* cache = nullptr;  // optional; not owned
  CampaignBench* bench = nullptr;      // optional; filled when given
};

// The run model's input for scenario `s` whose healthy step takes `step` for `tokens_per_step`
// tokens (and `degraded` with a plane failed; 0: none): the checkpoint's bytes, its write and
// load (campaign.checkpoint_write/load, else the bytes over storage or, async, one GPU's share
// over PCIe), the failure causes and the campaign keys.
struct CampaignPlan {
  campaign::RunSpec spec;
  core::Bytes checkpoint_bytes;
};
CampaignPlan campaign_plan(const config::Scenario& s, core::Seconds step, core::Seconds degraded,
                           double tokens_per_step);

// The scenario `source` gives; its steps (each decoded from `source`) run in forked children at
// `o.fidelity` (or come from `o.cache`). Throws core::InputError (located at the scenario key) for
// a scenario that is not a training step, has no campaign.tokens, or whose job cannot progress.
metrics::CampaignResult run_campaign(const config::ScenarioSource& source,
                                     const CampaignOptions& o = {});

}  // namespace codesim::study
