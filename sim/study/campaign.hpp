// A training run from the scenario's step (`codesim campaign`): the step simulated (and, on a
// fabric that routes around a failed plane, the step with one plane failed), then the run's
// failures, checkpoints and restarts over the tokens to train by Monte Carlo and in expectation
// (sim/campaign); days, GPU-hours, ETTR, interruptions, energy and cost.
#pragma once

#include <map>
#include <string>
#include <vector>

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

// Reads `path` with `settings` over it; the steps run in forked children at `fidelity` (or come
// from `cache`, which may be null). Throws core::InputError (located at the scenario key) for a
// scenario that is not a training step, has no campaign.tokens, or whose job cannot progress.
metrics::CampaignResult run_campaign(const std::string& path,
                                     const std::vector<config::Setting>& settings,
                                     metrics::Fidelity fidelity = metrics::Fidelity::fast,
                                     const Budget& budget = {}, CampaignStepCache* cache = nullptr);

}  // namespace codesim::study
