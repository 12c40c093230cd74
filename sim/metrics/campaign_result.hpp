// What a training run's campaign gives (`codesim campaign`). Plain data; sim/study fills it with
// the step and the run model's statistics, campaign_figures.hpp with the figures from them;
// sim/report writes it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/campaign/run_model.hpp"
#include "sim/core/note.hpp"
#include "sim/core/units.hpp"
#include "sim/metrics/fidelity.hpp"
#include "sim/metrics/step_spread.hpp"

namespace codesim::metrics {

// p10, p50, p90 and mean over the Monte-Carlo runs, and the analytic expectation.
using RunQuantiles = campaign::Quantiles;

struct CauseExpectation {
  std::string cause;
  double per_gpu_hour = 0;
  bool degrades = false;  // routed around by the fabric instead of stopping the job
  double expected = 0;    // over the run
};

struct CampaignResult {
  std::string scenario;
  Fidelity fidelity = Fidelity::full;  // of the step simulations
  int gpus = 0;
  int nodes = 0;
  core::Seconds step_time;                // healthy (with variability: the mean step)
  std::optional<StepSpread> step_spread;  // variability on: the steps drawn
  core::Seconds degraded_step_time;       // one plane failed; 0 when the fabric cannot route around
  double tokens = 0;
  double tokens_per_step = 0;
  double steps = 0;
  core::Bytes checkpoint_bytes;
  core::Seconds checkpoint_interval;
  bool checkpoint_interval_auto = false;
  core::Seconds checkpoint_write;
  core::Seconds checkpoint_load;
  core::Seconds mean_restart;
  double mtbf_hours = 0;  // between failures that stop the job
  int trials = 0;
  RunQuantiles days;
  RunQuantiles gpu_hours;
  RunQuantiles interruptions;
  RunQuantiles degradations;
  RunQuantiles cost_usd;
  RunQuantiles energy_mwh;
  double ettr_mean = 0;
  double ettr_expected = 0;
  double checkpoints = 0;  // written, mean over the runs
  std::vector<CauseExpectation> causes;
  // The first Monte-Carlo run: its restarts and degraded periods, and its length (the HTML
  // report's timeline).
  std::vector<campaign::RunSpan> first_run;
  core::Seconds first_run_wall;
  std::vector<core::Note> notes;
};

}  // namespace codesim::metrics
