// A campaign at every point of a scenario's sweep: section (the checkpoint interval, spare nodes,
// the topology under failures, the cluster's size, ...): each point's run as `codesim campaign`
// gives it, the step simulated once per distinct step.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sim/config/loader.hpp"
#include "sim/metrics/campaign_sweep.hpp"
#include "sim/metrics/run_result.hpp"
#include "sim/study/budget.hpp"

namespace codesim::study {

// Every point decoded before any runs (study::plan_sweep: a bad value fails with its location in
// the sweep); a point whose campaign is refused (say, its job cannot progress) keeps the reason
// and the others run. `progress` hears one line per point; may be empty.
metrics::CampaignSweep run_campaign_sweep(
    const config::ScenarioSource& source, metrics::Fidelity fidelity = metrics::Fidelity::fast,
    const Budget& budget = {}, const std::function<void(const std::string&)>& progress = {});

// Every candidate of the scenario's search: section (its keys, every combination) run as a
// campaign and ranked by the search's run objective (days, cost_usd, gpu_hours or energy_mwh:
// the p50, least first); candidates that do not decode or cannot progress last, with why.
metrics::CampaignSweep search_campaigns(
    const config::ScenarioSource& source, metrics::Fidelity fidelity = metrics::Fidelity::fast,
    const Budget& budget = {}, const std::function<void(const std::string&)>& progress = {});

}  // namespace codesim::study
