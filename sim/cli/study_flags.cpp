// The studies' subcommands and their flags: run, serve, campaign, sweep, search, compare.
#include <map>
#include <memory>
#include <string>

#include "sim/cli/cli_flags.hpp"

namespace codesim::cli {

Command add_run(CLI::App& app) {
  using report::Format;
  auto o = options<cli::RunOptions>();
  auto* cmd = app.add_subcommand(
      "run", "Simulate one training, prefill or decode step of a scenario and report it");
  cmd->add_option("scenario", o->scenario, "Scenario YAML")->required();
  cmd->add_option("--set", o->settings, "Override a key: --set routing.node_limit=2");
  add_format(cmd, o->format, {Format::table, Format::json, Format::csv, Format::md, Format::html});
  cmd->add_flag("--bench", o->bench, "Print where the time went and peak memory");
  cmd->add_option("--fidelity", o->fidelity,
                  "full (SimGrid, links shared) or fast (critical path, transfers timed alone)")
      ->transform(CLI::CheckedTransformer(std::map<std::string, metrics::Fidelity>{
          {"full", metrics::Fidelity::full}, {"fast", metrics::Fidelity::fast}}));
  cmd->add_option("--chrome-trace", o->chrome_trace,
                  "Write the simulated timeline for Perfetto / chrome://tracing");
  cmd->add_option("--report", o->report, "Also write the JSON report to this file");
  cmd->add_option("--max-memory-mb", o->max_memory_mb,
                  "Refuse a run whose simulation would need more memory (default 4096)")
      ->check(kPositive);
  cmd->add_option("--max-tasks", o->max_tasks,
                  "Refuse a step of more tasks than this (default 5,000,000)")
      ->check(kPositive);
  return {cmd, printing(o, &cli::run_run)};
}

Command add_serve(CLI::App& app) {
  auto o = options<cli::ServeOptions>();
  auto* cmd = app.add_subcommand(
      "serve",
      "Serve requests with a scenario's prefill and decode instances (its serve: section): TTFT, "
      "TPOT, throughput and goodput");
  add_scenario_report(cmd, *o, "serve.arrivals.rate=8");
  cmd->add_option("--max-steps", o->max_steps,
                  "Refuse a run of more prefill and decode steps than this (default 50,000,000)")
      ->check(kPositive);
  return {cmd, printing(o, &cli::run_serve)};
}

Command add_campaign(CLI::App& app) {
  auto o = options<cli::CampaignOptions>();
  auto* cmd = app.add_subcommand(
      "campaign",
      "A training run from a scenario's step (its campaign: section): days, GPU-hours, ETTR, "
      "interruptions, energy and cost under failures and checkpoints");
  add_scenario_report(cmd, *o, "campaign.spare_nodes=0");
  cmd->add_option("--fidelity", o->fidelity,
                  "The step's tier: fast (default: critical path) or full (SimGrid)")
      ->transform(CLI::CheckedTransformer(std::map<std::string, metrics::Fidelity>{
          {"full", metrics::Fidelity::full}, {"fast", metrics::Fidelity::fast}}));
  cmd->add_flag("--sweep", o->sweep,
                "A campaign at every point of the scenario's sweep: section (checkpoint interval, "
                "spares, topology, cluster size, ...), one row per point");
  cmd->add_flag("--search", o->search,
                "Every candidate of the scenario's search: section run as a campaign, ranked by "
                "its run objective (days, cost_usd, gpu_hours or energy_mwh: the p50, least "
                "first)")
      ->excludes("--sweep");
  cmd->add_flag("--bench", o->bench,
                "Print the step simulations' and the Monte Carlo's times and peak memory");
  return {cmd, printing(o, &cli::run_campaign)};
}

Command add_sweep(CLI::App& app) {
  using report::Format;
  auto o = options<cli::SweepOptions>();
  auto* cmd = app.add_subcommand(
      "sweep", "Run every point of a scenario's sweep: section; results.csv, .json, report.html");
  cmd->add_option("scenario", o->scenario, "Scenario YAML with a sweep: section")->required();
  cmd->add_option("--out", o->out_dir, "Directory for the points and the reports");
  cmd->add_option("--jobs", o->jobs, "Points simulated at once (default 2)")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--set", o->settings, "Override a key in every point");
  add_format(cmd, o->format, {Format::table, Format::json, Format::csv, Format::md});
  cmd->add_flag("--dry-run", o->dry_run, "Check and list the points; run none");
  return {cmd, [o](std::ostream& out) {
            const int failed = cli::run_sweep(*o, out);
            if (failed > 0) {
              std::cerr << "codesim sweep: " << failed
                        << " of the points failed (see the error column)\n";
              return kExitSimulationFailure;
            }
            return kExitOk;
          }};
}

Command add_search(CLI::App& app) {
  using report::Format;
  auto o = options<cli::SearchOptions>();
  auto* cmd = app.add_subcommand(
      "search",
      "Screen every configuration of a scenario's search: section with the fast tier, simulate "
      "the best in full; ranking.csv, .json, report.html");
  cmd->add_option("scenario", o->scenario, "Scenario YAML with a search: section")->required();
  cmd->add_option("--out", o->out_dir, "Directory for the full runs and the reports");
  cmd->add_option("--jobs", o->jobs, "Full simulations at once (default 2)")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--top", o->top, "How many to simulate in full (default: the search's top)")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--set", o->settings, "Override a key in every configuration");
  add_format(cmd, o->format, {Format::table, Format::json});
  cmd->add_flag("--dry-run", o->dry_run, "Check and list the configurations; simulate none");
  cmd->add_option("--max-memory-mb", o->max_memory_mb,
                  "Reject a configuration whose simulation would need more memory (default 4096)")
      ->check(kPositive);
  cmd->add_option("--max-tasks", o->max_tasks,
                  "Reject a configuration of more tasks than this (default 5,000,000)")
      ->check(kPositive);
  return {cmd, [o](std::ostream& out) {
            const int failed = cli::run_search(*o, out);
            if (failed > 0) {
              std::cerr << "codesim search: " << failed
                        << " of the full simulations failed (see the ranking)\n";
              return kExitSimulationFailure;
            }
            return kExitOk;
          }};
}

Command add_compare(CLI::App& app) {
  using report::Format;
  auto o = options<cli::CompareOptions>();
  auto* cmd = app.add_subcommand("compare",
                                 "Network cost and training throughput of scenarios side by side");
  cmd->add_option("scenarios", o->scenarios, "Scenario YAMLs (the first is the base)")->required();
  cmd->add_option("--jobs", o->jobs, "Scenarios simulated at once (default 2)")
      ->check(CLI::Range(1, 1024));
  add_format(cmd, o->format, {Format::table, Format::json, Format::csv, Format::md, Format::html});
  return {cmd, printing(o, &cli::run_compare)};
}

}  // namespace codesim::cli
