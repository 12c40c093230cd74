// `codesim campaign SCENARIO`: a training run from the scenario's step and its campaign: section,
// reported in the format asked for.
#include <ostream>

#include "sim/cli/commands.hpp"
#include "sim/cli/network_flags.hpp"
#include "sim/cli/usage.hpp"
#include "sim/cli/write_report.hpp"
#include "sim/config/dump.hpp"
#include "sim/config/loader.hpp"
#include "sim/core/stopwatch.hpp"
#include "sim/report/campaign_report.hpp"
#include "sim/report/campaign_sweep_report.hpp"
#include "sim/report/format.hpp"
#include "sim/study/campaign.hpp"
#include "sim/study/campaign_sweep.hpp"

namespace codesim::cli {

namespace {

// A sweep's points, or a search's ranked candidates, in the format asked for.
void run_campaign_sweep(const CampaignOptions& o, const std::vector<config::Setting>& settings,
                        std::ostream& out) {
  const auto say = [](const std::string& line) { progress("campaign", line); };
  const metrics::CampaignSweep r =
      o.search ? study::search_campaigns({o.scenario, {}, settings}, o.fidelity, {}, say)
               : study::run_campaign_sweep({o.scenario, {}, settings}, o.fidelity, {}, say);
  write_report(
      report::campaign_sweep_json(r),
      {[&] { return report::campaign_sweep_csv(r); },
       [&] { return report::campaign_sweep_markdown(r); },
       [&] {
         const config::Scenario s = config::load_scenario(o.scenario, settings);
         return report::campaign_sweep_html(r, {config::to_yaml(s), "codesim " CODESIM_VERSION});
       },
       [&] { return report::campaign_sweep_table(r); }},
      o.format, o.report, out);
}

}  // namespace

void run_campaign(const CampaignOptions& o, std::ostream& out) {
  const auto settings = config::parse_settings(o.settings);
  if (o.sweep || o.search) {
    run_campaign_sweep(o, settings, out);
    return;
  }
  study::CampaignBench bench;
  const metrics::CampaignResult r =
      study::run_campaign({o.scenario, {}, settings}, {.fidelity = o.fidelity, .bench = &bench});
  nlohmann::ordered_json j = report::campaign_json(r);
  if (o.bench) {
    j["bench"] = {{"steps_seconds", bench.steps.value},
                  {"steps_simulated", bench.steps_simulated},
                  {"monte_carlo_seconds", bench.monte_carlo.value},
                  {"peak_rss_MB", core::peak_resident_mb()}};
  }
  const std::string bench_line =
      "bench: steps " + report::fixed(bench.steps.value, 2) + " s (" +
      std::to_string(bench.steps_simulated) + " simulated), Monte Carlo " +
      report::fixed(bench.monte_carlo.value, 2) + " s (" + std::to_string(r.trials) + " runs of " +
      report::fixed(r.days.mean, 1) + " days), peak memory " +
      report::fixed(core::peak_resident_mb(), 0) + " MB\n";
  write_report(
      j,
      {[&] { return report::campaign_csv(r); }, [&] { return report::campaign_markdown(r); },
       [&] {
         const config::Scenario s = config::load_scenario(o.scenario, settings);
         return report::campaign_html(r, {config::to_yaml(s), "codesim " CODESIM_VERSION});
       },
       [&] { return report::campaign_table(r) + (o.bench ? bench_line : ""); }},
      o.format, o.report, out);
}

}  // namespace codesim::cli
