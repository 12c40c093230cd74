// Campaign: the healthy (and degraded) step in children, the run model, the figures.
#include "sim/study/campaign.hpp"

#include <chrono>
#include <cmath>
#include <optional>

#include "models/llm/analytics.hpp"
#include "sim/campaign/failure_table.hpp"
#include "sim/campaign/run_model.hpp"
#include "sim/config/dump.hpp"
#include "sim/core/quantity_parse.hpp"
#include "sim/core/stopwatch.hpp"
#include "sim/core/text.hpp"
#include "sim/metrics/result_record.hpp"
#include "sim/study/isolated.hpp"
#include "sim/study/sweep_plan.hpp"
#include "sim/study/training.hpp"

namespace codesim::study {
namespace {

using config::Scenario;

struct Step {
  core::Seconds time;  // with variability: the mean of the steps drawn
  double tokens = 0;
  std::optional<metrics::StepSpread> spread;  // the steps drawn (no per-step times)
  std::optional<metrics::StepEnergy> energy;  // of the identical-replica step
};

// The healthy step, the step with plane 0 failed where the fabric routes around it (a multi-plane
// fat-tree with no plane failed already; else 0), and how many of them were simulated here (0
// when the cache had them).
struct Steps {
  Step healthy;
  core::Seconds degraded;
  int simulated = 0;
};

// Steps, each simulated in a child process unless `cache` has them.
Steps steps_of(const std::string& path, const std::vector<config::Setting>& settings,
               const Scenario& s, metrics::Fidelity fidelity, const Budget& budget,
               CampaignStepCache* cache) {
  const auto& net = s.topology.network;
  const bool degradable =
      net.family == topologies::Family::mpft && net.planes > 1 && s.topology.failed_planes.empty();
  std::vector<IsolatedWork> works;
  const auto work = [&](std::vector<config::Setting> with) {
    return [path, with, fidelity, budget]() -> std::string {
      return metrics::pack(
          run_training(config::load_scenario(path, with), {.budget = budget, .fidelity = fidelity})
              .result);
    };
  };
  // A campaign's steps vary unless the scenario says otherwise (variability.enabled).
  auto base = settings;
  if (s.where.count("variability.enabled") == 0) {
    base.push_back(config::parse_setting("variability.enabled=true"));
  }
  works.push_back(work(base));
  if (degradable) {
    auto with = base;
    with.push_back(config::parse_setting("topology.failed_planes=[0]"));
    works.push_back(work(with));
  }
  // The campaign keys do not change the step: a sweep over them simulates it once.
  Scenario stepped = s;
  stepped.campaign = {};
  const std::string key =
      core::format_number(static_cast<int>(fidelity)) + config::to_yaml(stepped);
  std::vector<std::string> payloads;
  int simulated = 0;
  if (cache != nullptr && cache->payloads.count(key) > 0) {
    payloads = cache->payloads.at(key);
  } else {
    simulated = static_cast<int>(works.size());
    for (const auto& o : run_isolated(works, 2)) {
      if (o.exit_code != 0) {
        throw core::InputError(core::Diagnostic{
            {s.source_file, 0, 0}, "", "the campaign's training step failed: " + o.error, ""});
      }
      payloads.push_back(o.payload);
    }
    if (cache != nullptr) {
      cache->payloads[key] = payloads;
    }
  }
  std::vector<Step> out;
  for (const auto& payload : payloads) {
    metrics::RunResult r = metrics::unpack<metrics::RunResult>(payload);
    if (r.spread) {
      r.spread->step_times_s.clear();  // the campaign keeps the steps' figures, not each step
      r.spread->step_weights.clear();
    }
    out.push_back({r.step_time, r.tokens_per_step, r.spread, r.energy});
  }
  return {out.front(), out.size() > 1 ? out[1].time : core::Seconds(0), simulated};
}

// The job's mean power over its run (`ettr` 1: while it trains): the scenario's wattages where it
// gives them; else the step's energy model, its share `ettr` of the wall time training at the
// step's mean power and the rest (restarts, checkpoints, lost work) with its GPUs awake and its
// network and hosts as in the step; 0 when neither is there.
double job_power_w(const Scenario& s, const Step& step, double ettr) {
  const auto& c = s.campaign;
  const double gpus = s.gpus();
  if (c.gpu_power_w > 0 || c.node_power_w > 0 || !step.energy || step.time.value <= 0) {
    return gpus * c.gpu_power_w + s.hardware.nodes * c.node_power_w;
  }
  const metrics::StepEnergy& e = *step.energy;
  // The energy is the identical-replica step's: over its own time.
  const double t = step.spread ? step.spread->identical.value : step.time.value;
  const double training = e.total_j() / t;
  const double down = gpus * s.hardware.spec.gpu.power.awake_w + (e.network_j + e.host_j) / t;
  return ettr * training + (1 - ettr) * down;
}

metrics::RunQuantiles scaled(const metrics::RunQuantiles& q, double f) {
  return {.p10 = q.p10 * f,
          .p50 = q.p50 * f,
          .p90 = q.p90 * f,
          .mean = q.mean * f,
          .expected = q.expected * f};
}

// The run's figures from the Monte-Carlo runs: days, GPU-hours, cost and energy by quantile,
// interruptions, ETTR, checkpoints and the expected stops by cause.
void run_figures(const Scenario& s, const Step& step, const campaign::RunStats& stats,
                 const campaign::RunSpec& spec, core::Seconds degraded,
                 metrics::CampaignResult& r) {
  const auto& c = s.campaign;
  const auto& causes = spec.causes;
  r.mean_restart = stats.mean_restart;
  r.checkpoint_interval = stats.checkpoint_interval;
  r.mtbf_hours = stats.stop_rate_per_s > 0 ? 1 / stats.stop_rate_per_s / 3600 : 0;
  r.days = scaled(stats.wall_s, 1.0 / 86400);
  r.gpu_hours = scaled(stats.wall_s, r.gpus / 3600.0);
  r.cost_usd = scaled(r.gpu_hours, c.price_per_gpu_hour);
  const double watts = job_power_w(s, step, stats.ettr_mean) * c.pue;
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

// The campaign's notes: how the step and the run were simulated, the failure rates and the
// scenario's assumptions, where the energy comes from, what is left out.
void campaign_notes(const Scenario& s, const Step& step, const campaign::RunStats& stats,
                    core::Seconds degraded, metrics::CampaignResult& r) {
  const auto& c = s.campaign;
  r.notes.push_back(
      {core::NoteKind::method,
       "the step simulated at the " + metrics::fidelity_name(r.fidelity) + " tier" +
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
                             core::fixed(job_power_w(s, step, 1) / 1e6, 2) +
                             " MW, the rest with the GPUs awake and the network and hosts as in "
                             "the step; x campaign.pue " +
                             core::fixed(c.pue, 2)}
            : core::Note{core::NoteKind::omitted,
                         "energy: the GPU has no power model; set campaign.gpu_power_w and "
                         "node_power_w"});
  }
  if (step.spread) {
    const metrics::StepSpread& sp = *step.spread;
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

}  // namespace

CampaignPlan campaign_plan(const Scenario& s, core::Seconds step, core::Seconds degraded,
                           double tokens_per_step) {
  const auto& c = s.campaign;
  CampaignPlan plan;
  // The checkpoint: the training state's bytes, written to storage (or, asynchronously, one
  // GPU's share copied to host memory over PCIe while the write overlaps training).
  const double params = llm::analyze(s.model.spec, s.workload.seq_len).params_total;
  plan.checkpoint_bytes = core::Bytes(params * c.checkpoint_bytes_per_param);
  const core::Seconds write =
      c.checkpoint_write.value > 0
          ? c.checkpoint_write
          : (c.async_checkpoint ? plan.checkpoint_bytes / static_cast<double>(s.gpus()) /
                                      s.hardware.spec.pcie_bandwidth
                                : plan.checkpoint_bytes / c.storage_bandwidth);
  const core::Seconds load =
      c.checkpoint_load.value > 0 ? c.checkpoint_load : plan.checkpoint_bytes / c.storage_bandwidth;
  plan.spec = {.steps = std::ceil(c.tokens / tokens_per_step),
               .step = step,
               .degraded_step = degraded,
               .gpus = s.gpus(),
               .causes = c.failures == campaign::FailureRates::rate
                             ? campaign::scaled_failure_table(c.node_failure_rate,
                                                              s.hardware.spec.gpus_per_node)
                             : campaign::llama3_failure_table(),
               .checkpoint_interval = c.checkpoint_interval.every,
               .checkpoint_write = write,
               .checkpoint_load = load,
               .restart = c.restart,
               .monte_carlo = c.monte_carlo};
  return plan;
}

metrics::CampaignResult run_campaign(const std::string& path,
                                     const std::vector<config::Setting>& settings,
                                     const CampaignOptions& o) {
  const metrics::Fidelity fidelity = o.fidelity;
  const Scenario s = config::load_scenario(path, settings);
  require_training(s, "campaign");
  const auto& c = s.campaign;
  if (!(c.tokens > 0)) {
    config::scenario_error(s, "campaign.tokens", "a campaign needs the tokens to train",
                           "e.g. campaign: {tokens: 14.8e12}");
  }
  const auto steps_start = std::chrono::steady_clock::now();
  const auto [step, degraded, simulated] = steps_of(path, settings, s, fidelity, o.budget, o.cache);
  if (o.bench != nullptr) {
    o.bench->steps = core::Seconds(core::seconds_since(steps_start));
    o.bench->steps_simulated = simulated;
  }

  metrics::CampaignResult r;
  r.scenario = s.name;
  r.fidelity = fidelity;
  r.gpus = s.gpus();
  r.nodes = s.hardware.nodes;
  r.step_time = step.time;
  r.step_spread = step.spread;
  r.degraded_step_time = degraded;
  r.tokens = c.tokens;
  r.tokens_per_step = step.tokens;
  r.trials = c.monte_carlo.trials;

  const CampaignPlan plan = campaign_plan(s, step.time, degraded, step.tokens);
  const campaign::RunSpec& spec = plan.spec;
  r.steps = spec.steps;
  r.checkpoint_bytes = plan.checkpoint_bytes;
  r.checkpoint_write = spec.checkpoint_write;
  r.checkpoint_load = spec.checkpoint_load;
  r.checkpoint_interval_auto = c.checkpoint_interval.automatic();
  campaign::RunStats stats;
  try {
    const auto run_start = std::chrono::steady_clock::now();
    stats = campaign::simulate_run(spec);
    if (o.bench != nullptr) {
      o.bench->monte_carlo = core::Seconds(core::seconds_since(run_start));
    }
  } catch (const core::KeyedError& e) {
    config::scenario_error(s, e);
  }
  run_figures(s, step, stats, spec, degraded, r);
  campaign_notes(s, step, stats, degraded, r);
  return r;
}

}  // namespace codesim::study
