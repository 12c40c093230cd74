// A campaign's figures and notes from the step, the run model's statistics and the campaign's
// inputs.
#include "sim/metrics/campaign_figures.hpp"

#include <string>

#include "sim/core/quantity_parse.hpp"
#include "sim/core/text.hpp"

namespace codesim::metrics {
namespace {

RunQuantiles scaled(const RunQuantiles& q, double f) {
  return {.p10 = q.p10 * f,
          .p50 = q.p50 * f,
          .p90 = q.p90 * f,
          .mean = q.mean * f,
          .expected = q.expected * f};
}

}  // namespace

double job_power_w(const campaign::CampaignSpec& c, const CampaignJob& job,
                   const CampaignStep& step, double ettr) {
  const double gpus = job.gpus;
  if (c.gpu_power_w > 0 || c.node_power_w > 0 || !step.energy || step.time.value <= 0) {
    return gpus * c.gpu_power_w + job.nodes * c.node_power_w;
  }
  const StepEnergy& e = *step.energy;
  // The energy is the identical-replica step's: over its own time.
  const double t = step.spread ? step.spread->identical.value : step.time.value;
  const double training = e.total_j() / t;
  const double down = gpus * job.gpu_awake_w + (e.network_j + e.host_j) / t;
  return ettr * training + (1 - ettr) * down;
}

void add_run_figures(const campaign::CampaignSpec& c, const CampaignJob& job,
                     const CampaignStep& step, const campaign::RunStats& stats,
                     const campaign::RunSpec& spec, core::Seconds degraded, CampaignResult& r) {
  const auto& causes = spec.causes;
  r.mean_restart = stats.mean_restart;
  r.checkpoint_interval = stats.checkpoint_interval;
  r.mtbf_hours = stats.stop_rate_per_s > 0 ? 1 / stats.stop_rate_per_s / 3600 : 0;
  r.days = scaled(stats.wall_s, 1.0 / 86400);
  r.gpu_hours = scaled(stats.wall_s, r.gpus / 3600.0);
  r.cost_usd = scaled(r.gpu_hours, c.price_per_gpu_hour);
  const double watts = job_power_w(c, job, step, stats.ettr_mean) * c.pue;
  r.energy_mwh = scaled(stats.wall_s, watts / 3.6e9);
  r.interruptions = stats.interruptions;
  r.degradations = stats.degradations;
  r.ettr_mean = stats.ettr_mean;
  r.ettr_expected = stats.ettr_expected;
  r.checkpoints = stats.checkpoints;
  r.first_run = stats.first_run;
  r.first_run_wall = core::Seconds(stats.first_run_wall_s);
  for (std::size_t i = 0; i < causes.size(); ++i) {
    r.causes.push_back({causes[i].name, causes[i].per_gpu_hour,
                        causes[i].network && degraded.value > 0, stats.expected_by_cause[i]});
  }
}

void add_campaign_notes(const campaign::CampaignSpec& c, const CampaignJob& job,
                        const CampaignStep& step, const campaign::RunStats& stats,
                        core::Seconds degraded, CampaignResult& r) {
  r.notes.push_back(
      {core::NoteKind::method,
       "the step simulated at the " + fidelity_name(r.fidelity) + " tier" +
           (degraded.value > 0 ? ", and again with plane 0 failed (network faults run degraded "
                                 "until repaired)"
                               : std::string()) +
           "; the run's failures, checkpoints and restarts by " +
           std::to_string(c.monte_carlo.trials) + " Monte-Carlo runs and in expectation"});
  r.notes.push_back(
      {c.failures == campaign::FailureRates::rate ? core::NoteKind::assumed
                                                  : core::NoteKind::fitted,
       c.failures == campaign::FailureRates::rate && c.node_failure_rate <= 0
           ? std::string("failures: none (campaign.node_failure_rate 0)")
       : c.failures == campaign::FailureRates::rate
           ? "failures: " + core::format_number(c.node_failure_rate) +
                 " per 1,000 node-days in Llama 3's mix of causes"
           : std::string("failures: Llama 3's 419 unexpected interruptions on 16,384 H100 over "
                         "54 days, per GPU-hour by cause (arXiv 2407.21783, Table 5)")});
  r.notes.push_back({core::NoteKind::assumed,
                     "detection " + core::fixed(c.restart.detection.value / 60, 0) +
                         " min, reschedule " + core::fixed(c.restart.reschedule.value / 60, 0) +
                         " min, repair " + core::fixed(c.restart.repair.value / 3600, 1) + " h, " +
                         core::format_number(c.checkpoint_bytes_per_param) +
                         " B of state per parameter" +
                         (c.gpu_power_w > 0 || c.node_power_w > 0
                              ? ", " + core::format_number(c.gpu_power_w) + " W per GPU and " +
                                    core::format_number(c.node_power_w) + " W per node besides"
                              : std::string()) +
                         " (scenario inputs; defaults assumed)"});
  if (c.gpu_power_w <= 0 && c.node_power_w <= 0) {
    r.notes.push_back(
        step.energy
            ? core::Note{core::NoteKind::method,
                         "energy from the step's power model: " +
                             core::fixed(100 * stats.ettr_mean, 1) +
                             "% of the wall time (the mean ETTR) at the step's " +
                             core::fixed(job_power_w(c, job, step, 1) / 1e6, 2) +
                             " MW, the rest with the GPUs awake and the network and hosts as in "
                             "the step; x campaign.pue " +
                             core::fixed(c.pue, 2)}
            : core::Note{core::NoteKind::omitted,
                         "energy: the GPU has no power model; set campaign.gpu_power_w and "
                         "node_power_w"});
  }
  if (step.spread) {
    const StepSpread& sp = *step.spread;
    r.notes.push_back(
        {core::NoteKind::method,
         "the step is the mean of " + std::to_string(sp.steps) +
             " steps drawn under variability (every replica at its drawn pace, fail-slow GPUs "
             "and links included: " +
             core::fixed(sp.slow_gpus, 2) + " GPUs and " + core::fixed(sp.slow_links, 2) +
             " links slow per step on average), " +
             core::fixed(100 * (sp.mean / sp.identical - 1), 1) +
             "% above the identical-replica step; variability.* in docs/model/variability.md"});
  }
  r.notes.push_back({core::NoteKind::omitted,
                     std::string(step.spread ? ""
                                             : "variability inside a step (every replica "
                                               "identical, variability.enabled false), ") +
                         "failures during restarts, a spare pool running dry, loss spikes and "
                         "rollbacks"});
}

}  // namespace codesim::metrics
