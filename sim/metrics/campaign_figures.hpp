// A campaign's figures from plain values (sim/study simulates the step and runs the run model):
// days, GPU-hours, cost and energy by quantile, interruptions, ETTR, checkpoints, the expected
// stops by cause, and the notes saying how each was had.
#pragma once

#include <optional>

#include "sim/campaign/campaign_spec.hpp"
#include "sim/campaign/run_model.hpp"
#include "sim/core/units.hpp"
#include "sim/metrics/campaign_result.hpp"
#include "sim/metrics/step_energy.hpp"
#include "sim/metrics/step_spread.hpp"

namespace codesim::metrics {

// The step the run trains at.
struct CampaignStep {
  core::Seconds time;  // with variability: the mean of the steps drawn
  double tokens = 0;
  std::optional<StepSpread> spread;  // the steps drawn (no per-step times)
  std::optional<StepEnergy> energy;  // of the identical-replica step
};

// The job's size and its GPUs' power while they wait.
struct CampaignJob {
  int gpus = 0;
  int nodes = 0;
  double gpu_awake_w = 0;
};

// The job's mean power over its run (`ettr` 1: while it trains): the campaign's wattages where it
// gives them; else the step's energy model, its share `ettr` of the wall time training at the
// step's mean power and the rest (restarts, checkpoints, lost work) with its GPUs awake and its
// network and hosts as in the step; 0 when neither is there.
double job_power_w(const campaign::CampaignSpec& c, const CampaignJob& job,
                   const CampaignStep& step, double ettr);

// Fills r's run figures (days, GPU-hours, cost, energy, interruptions, ETTR, checkpoints, causes)
// from the Monte-Carlo runs of `spec`; `degraded` 0 when network faults stop the job.
void add_run_figures(const campaign::CampaignSpec& c, const CampaignJob& job,
                     const CampaignStep& step, const campaign::RunStats& stats,
                     const campaign::RunSpec& spec, core::Seconds degraded, CampaignResult& r);

// Adds r's notes: how the step and the run were simulated, the failure rates and the campaign's
// assumptions, where the energy comes from, what is left out.
void add_campaign_notes(const campaign::CampaignSpec& c, const CampaignJob& job,
                        const CampaignStep& step, const campaign::RunStats& stats,
                        core::Seconds degraded, CampaignResult& r);

}  // namespace codesim::metrics
