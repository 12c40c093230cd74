// `codesim sweep SCENARIO --out DIR`: the points sim/study plans, each simulated in a child
// process (study::simulate_points), its record written atomically to
// DIR/points/ as soon as it ends, so that a killed sweep resumes with the points done. Under
// mpirun the points are dealt round-robin over the ranks and rank 0 gathers them into the reports.
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "sim/cli/commands.hpp"
#include "sim/cli/mpi_ranks.hpp"
#include "sim/cli/point_store.hpp"
#include "sim/cli/usage.hpp"
#include "sim/report/atomic_file.hpp"
#include "sim/report/format.hpp"
#include "sim/report/frame.hpp"
#include "sim/report/html_report.hpp"
#include "sim/report/markdown.hpp"
#include "sim/report/sweep_report.hpp"
#include "sim/report/table.hpp"
#include "sim/study/sweep_plan.hpp"

namespace codesim::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::ordered_json;
using report::Format;

std::string dry_run_table(const study::SweepPlan& plan) {
  std::vector<std::string> header{"point"};
  for (const auto& a : plan.sweep.axes) {
    header.push_back(a.key);
  }
  report::Table t(header, std::vector(header.size(), report::Table::Align::right));
  for (const auto& p : plan.points) {
    std::vector<std::string> row{std::to_string(p.index)};
    row.insert(row.end(), p.values.begin(), p.values.end());
    t.add_row(row);
  }
  return plan.base.name + ": " + std::to_string(plan.points.size()) + " points (" +
         std::string(config::sweep_mode_name(plan.sweep.mode)) +
         "), every one checked, none run\n" + t.render();
}

}  // namespace

int run_sweep(const SweepOptions& o, std::ostream& out) {
  const study::SweepPlan plan =
      study::plan_sweep({o.scenario, {}, config::parse_settings(o.settings)});
  if (o.dry_run) {
    out << dry_run_table(plan);
    return 0;
  }
  if (o.out_dir.empty()) {
    throw_usage_error("sweep", "give --out DIR for the points and the reports");
  }
  const MpiRanks ranks;
  std::vector<const study::PlannedPoint*> points;
  for (const auto& p : plan.points) {
    points.push_back(&p);
  }
  const std::vector<std::string> all = ranks.gather(run_points(
      points, {.command = "sweep", .out_dir = o.out_dir, .jobs = o.jobs}, ranks,
      [&](const study::PlannedPoint& p) { return study::describe_values(plan.sweep, p); }));
  if (ranks.rank() != 0) {
    return 0;
  }
  std::vector<study::PointOutcome> outcomes;
  for (const auto& text : all) {
    outcomes.push_back(outcome_of(ordered_json::parse(text)));
  }
  const metrics::SweepResult result = study::sweep_result(plan, outcomes);
  int failed = 0;
  for (const auto& p : result.points) {
    failed += p.result ? 0 : 1;
  }
  const std::string scenario_text = scenario_as_run(o.scenario, o.settings);
  const fs::path dir(o.out_dir);
  const std::string json_text = report::sweep_json(result).dump(2) + "\n";
  report::write_file_atomically((dir / "results.json").string(), json_text);
  const std::string csv_text = report::frame_csv(report::sweep_frame(result));
  report::write_file_atomically((dir / "results.csv").string(), csv_text);
  report::write_file_atomically(
      (dir / "report.html").string(),
      report::sweep_html(result, {scenario_text, "codesim " CODESIM_VERSION}));
  switch (o.format) {
    case Format::json:
      out << json_text;
      break;
    case Format::csv:
      out << csv_text;
      break;
    case Format::md:
      out << report::sweep_markdown(result);
      break;
    case Format::table:
    case Format::html:
      out << report::sweep_table(result);
      break;
  }
  return failed;
}

}  // namespace codesim::cli
