// Campaign: the healthy (and degraded) step in children, the run model, the figures.
#include "sim/study/campaign.hpp"

#include <cmath>
#include <sstream>

#include "models/llm/analytics.hpp"
#include "sim/campaign/failure_table.hpp"
#include "sim/campaign/run_model.hpp"
#include "sim/core/quantity_parse.hpp"
#include "sim/core/text.hpp"
#include "sim/study/isolated.hpp"
#include "sim/study/sweep_plan.hpp"
#include "sim/study/training.hpp"

namespace codesim::study {
namespace {

using config::Scenario;

struct Step {
  core::Seconds time;
  double tokens = 0;
};

// The healthy step, and the step with plane 0 failed where the fabric routes around it (a
// multi-plane fat-tree with no plane failed already), each in a child process.
std::pair<Step, core::Seconds> steps_of(const std::string& path,
                                        const std::vector<config::Setting>& settings,
                                        const Scenario& s, metrics::Fidelity fidelity,
                                        const Budget& budget) {
  const auto& net = s.topology.network;
  const bool degradable =
      net.family == topologies::Family::mpft && net.planes > 1 && s.topology.failed_planes.empty();
  std::vector<IsolatedWork> works;
  const auto work = [&](std::vector<config::Setting> with) {
    return [path, with, fidelity, budget]() -> std::string {
      const auto r =
          run_training(config::load_scenario(path, with), {.budget = budget, .fidelity = fidelity})
              .result;
      return core::format_number(r.step_time.value) + " " + core::format_number(r.tokens_per_step);
    };
  };
  works.push_back(work(settings));
  if (degradable) {
    auto with = settings;
    with.push_back(config::parse_setting("topology.failed_planes=[0]"));
    works.push_back(work(with));
  }
  const auto outcomes = run_isolated(works, 2);
  std::vector<Step> out;
  for (const auto& o : outcomes) {
    if (o.exit_code != 0) {
      throw core::InputError(core::Diagnostic{
          {s.source_file, 0, 0}, "", "the campaign's training step failed: " + o.error, ""});
    }
    std::istringstream in(o.payload);
    double t = 0;
    double tokens = 0;
    in >> t >> tokens;
    out.push_back({core::Seconds(t), tokens});
  }
  return {out.front(), out.size() > 1 ? out[1].time : core::Seconds(0)};
}

metrics::RunQuantiles scaled(const metrics::RunQuantiles& q, double f) {
  return {.p10 = q.p10 * f,
          .p50 = q.p50 * f,
          .p90 = q.p90 * f,
          .mean = q.mean * f,
          .expected = q.expected * f};
}

}  // namespace

metrics::CampaignResult run_campaign(const std::string& path,
                                     const std::vector<config::Setting>& settings,
                                     metrics::Fidelity fidelity, const Budget& budget) {
  const Scenario s = config::load_scenario(path, settings);
  require_training(s, "campaign");
  const auto& c = s.campaign;
  if (!(c.tokens > 0)) {
    config::scenario_error(s, "campaign.tokens", "a campaign needs the tokens to train",
                           "e.g. campaign: {tokens: 14.8e12}");
  }
  const auto [step, degraded] = steps_of(path, settings, s, fidelity, budget);

  metrics::CampaignResult r;
  r.scenario = s.name;
  r.fidelity = std::string(metrics::fidelity_name(fidelity));
  r.gpus = s.gpus();
  r.nodes = s.hardware.nodes;
  r.step_time = step.time;
  r.degraded_step_time = degraded;
  r.tokens = c.tokens;
  r.tokens_per_step = step.tokens;
  r.steps = std::ceil(c.tokens / step.tokens);
  r.trials = c.trials;

  // The checkpoint: the training state's bytes, written to storage (or, asynchronously, one
  // GPU's share copied to host memory over PCIe while the write overlaps training).
  const double params = llm::analyze(s.model.spec, s.workload.seq_len).params_total;
  r.checkpoint_bytes = core::Bytes(params * c.checkpoint_bytes_per_param);
  r.checkpoint_write =
      c.checkpoint_write.value > 0
          ? c.checkpoint_write
          : (c.async_checkpoint
                 ? r.checkpoint_bytes / static_cast<double>(r.gpus) / s.hardware.spec.pcie_bandwidth
                 : r.checkpoint_bytes / c.storage_bandwidth);
  r.checkpoint_load =
      c.checkpoint_load.value > 0 ? c.checkpoint_load : r.checkpoint_bytes / c.storage_bandwidth;

  const auto causes =
      c.node_failure_rate > 0
          ? campaign::scaled_failure_table(c.node_failure_rate, s.hardware.spec.gpus_per_node)
          : campaign::llama3_failure_table();
  const campaign::RunSpec spec{.steps = r.steps,
                               .step = step.time,
                               .degraded_step = degraded,
                               .gpus = r.gpus,
                               .causes = causes,
                               .checkpoint_interval = c.checkpoint_interval,
                               .checkpoint_write = r.checkpoint_write,
                               .checkpoint_load = r.checkpoint_load,
                               .detection = c.detection,
                               .reschedule = c.reschedule,
                               .repair = c.repair,
                               .spare_nodes = c.spare_nodes,
                               .trials = c.trials,
                               .seed = static_cast<std::uint64_t>(c.seed)};
  r.checkpoint_interval_auto = c.checkpoint_interval.value <= 0;
  campaign::RunStats stats;
  try {
    stats = campaign::simulate_run(spec);
  } catch (const core::KeyedError& e) {
    config::scenario_error(s, e);
  }
  r.mean_restart = stats.mean_restart;
  r.checkpoint_interval = stats.checkpoint_interval;
  r.mtbf_hours = stats.stop_rate_per_s > 0 ? 1 / stats.stop_rate_per_s / 3600 : 0;
  r.days = scaled(stats.wall_s, 1.0 / 86400);
  r.gpu_hours = scaled(stats.wall_s, r.gpus / 3600.0);
  r.cost_usd = scaled(r.gpu_hours, c.price_per_gpu_hour);
  const double watts = (r.gpus * c.gpu_power_w + r.nodes * c.node_power_w) * c.pue;
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
  r.notes.push_back(
      {core::NoteKind::method,
       "the step simulated at the " + r.fidelity + " tier" +
           (degraded.value > 0 ? ", and again with plane 0 failed (network faults run degraded "
                                 "until repaired)"
                               : std::string()) +
           "; the run's failures, checkpoints and restarts by " + std::to_string(c.trials) +
           " Monte-Carlo runs and in expectation"});
  r.notes.push_back(
      {core::NoteKind::fitted,
       c.node_failure_rate > 0
           ? "failures: " + core::format_number(c.node_failure_rate) +
                 " per 1,000 node-days in Llama 3's mix of causes"
           : std::string("failures: Llama 3's 419 unexpected interruptions on 16,384 H100 over "
                         "54 days, per GPU-hour by cause (arXiv 2407.21783, Table 5)")});
  r.notes.push_back({core::NoteKind::assumed,
                     "detection " + core::fixed(c.detection.value / 60, 0) + " min, reschedule " +
                         core::fixed(c.reschedule.value / 60, 0) + " min, repair " +
                         core::fixed(c.repair.value / 3600, 1) + " h, " +
                         core::format_number(c.checkpoint_bytes_per_param) +
                         " B of state per parameter, " + core::format_number(c.gpu_power_w) +
                         " W per GPU and " + core::format_number(c.node_power_w) +
                         " W per node besides (scenario inputs; defaults assumed)"});
  r.notes.push_back({core::NoteKind::omitted,
                     "variability inside a step (every replica identical), fail-slow episodes, "
                     "failures during restarts, a spare pool running dry, loss spikes and "
                     "rollbacks"});
  return r;
}

}  // namespace codesim::study
