// Campaign: the healthy (and degraded) step in children, the run model; the figures are
// metrics' (campaign_figures.hpp).
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
#include "sim/metrics/campaign_figures.hpp"
#include "sim/metrics/result_record.hpp"
#include "sim/study/isolated.hpp"
#include "sim/study/sweep_plan.hpp"
#include "sim/study/training.hpp"

namespace codesim::study {
namespace {

using config::Scenario;

using Step = metrics::CampaignStep;

// The healthy step, the step with plane 0 failed where the fabric routes around it (a multi-plane
// fat-tree with no plane failed already; else 0), and how many of them were simulated here (0
// when the cache had them).
struct Steps {
  Step healthy;
  core::Seconds degraded;
  int simulated = 0;
};

// Steps, each simulated in a child process unless `cache` has them.
Steps steps_of(const config::ScenarioSource& source, const Scenario& s, metrics::Fidelity fidelity,
               const Budget& budget, CampaignStepCache* cache) {
  const auto& net = s.topology.network;
  const bool degradable =
      net.family == topologies::Family::mpft && net.planes > 1 && s.topology.failed_planes.empty();
  std::vector<IsolatedWork> works;
  const auto work = [&](std::vector<config::Setting> with) {
    return [step = source.with(with), fidelity, budget]() -> std::string {
      return metrics::pack(
          run_training(config::load_scenario(step), {.budget = budget, .fidelity = fidelity})
              .result);
    };
  };
  // A campaign's steps vary unless the scenario says otherwise (variability.enabled).
  std::vector<config::Setting> base;
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

metrics::CampaignResult run_campaign(const config::ScenarioSource& source,
                                     const CampaignOptions& o) {
  const metrics::Fidelity fidelity = o.fidelity;
  const Scenario s = config::load_scenario(source);
  require_training(s, "campaign");
  const auto& c = s.campaign;
  if (!(c.tokens > 0)) {
    config::scenario_error(s, "campaign.tokens", "a campaign needs the tokens to train",
                           "e.g. campaign: {tokens: 14.8e12}");
  }
  const auto steps_start = std::chrono::steady_clock::now();
  const auto [step, degraded, simulated] = steps_of(source, s, fidelity, o.budget, o.cache);
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
  const metrics::CampaignJob job{.gpus = s.gpus(),
                                 .nodes = s.hardware.nodes,
                                 .gpu_awake_w = s.hardware.spec.gpu.power.awake_w};
  metrics::add_run_figures(c, job, step, stats, spec, degraded, r);
  metrics::add_campaign_notes(c, job, step, stats, degraded, r);
  return r;
}

}  // namespace codesim::study
