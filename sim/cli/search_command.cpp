// `codesim search SCENARIO --out DIR`: every configuration of the scenario's search: keys
// screened by the fast tier in this process, the best --top simulated in full by child
// `codesim run`s (resumable, dealt over MPI ranks as a sweep's points are), then ranked again and
// written to DIR/ranking.csv, ranking.json and report.html.
#include <filesystem>
#include <nlohmann/json.hpp>

#include "sim/cli/commands.hpp"
#include "sim/cli/mpi_ranks.hpp"
#include "sim/cli/point_store.hpp"
#include "sim/cli/usage.hpp"
#include "sim/report/atomic_file.hpp"
#include "sim/report/frame.hpp"
#include "sim/report/search_report.hpp"
#include "sim/report/table.hpp"
#include "sim/study/search.hpp"

namespace codesim::cli {
namespace {

namespace fs = std::filesystem;

// Every candidate, and whether it decodes: what a search would screen.
std::string dry_run_table(const study::SearchPlan& plan) {
  std::vector<std::string> header{"candidate"};
  for (const auto& a : plan.search.candidates.axes) {
    header.push_back(a.key);
  }
  header.emplace_back("checked");
  report::Table t(header, std::vector(header.size(), report::Table::Align::right));
  int rejected = 0;
  for (const auto& c : plan.candidates) {
    std::vector<std::string> row{std::to_string(c.point.index)};
    row.insert(row.end(), c.point.values.begin(), c.point.values.end());
    row.emplace_back(c.rejected.empty() ? "ok" : "rejected");
    rejected += c.rejected.empty() ? 0 : 1;
    t.add_row(row);
  }
  std::string out = plan.base.name + ": " + std::to_string(plan.candidates.size()) +
                    " configurations, " + std::to_string(rejected) +
                    " rejected before simulation, none run\n" + t.render();
  for (const auto& c : plan.candidates) {
    if (!c.rejected.empty()) {
      out += "candidate " + std::to_string(c.point.index) + ": " + c.rejected + "\n";
    }
  }
  return out;
}

}  // namespace

int run_search(const SearchOptions& o, std::ostream& out) {
  const study::SearchPlan plan =
      study::plan_search({o.scenario, {}, config::parse_settings(o.settings)});
  if (o.dry_run) {
    out << dry_run_table(plan);
    return 0;
  }
  if (o.out_dir.empty()) {
    throw_usage_error("search", "give --out DIR for the full runs and the reports");
  }
  const int top = o.top > 0 ? o.top : plan.search.top;
  const study::Budget budget{.max_tasks = o.max_tasks,
                             .max_platform_memory = core::Bytes(o.max_memory_mb * 1e6)};
  progress("search", "screening " + std::to_string(plan.candidates.size()) +
                         " configurations with the fast tier...");
  metrics::SearchResult result =
      study::screen(plan, budget, [](const std::string& line) { progress("search", line); });
  result.top = top;
  const std::vector<std::size_t> best = study::best(result, top);
  std::vector<const study::PlannedPoint*> points;
  for (const std::size_t i : best) {
    points.push_back(&plan.candidates[i].point);
  }
  const MpiRanks ranks;
  const auto all =
      ranks.gather(run_points(points, {.command = "search", .out_dir = o.out_dir, .jobs = o.jobs},
                              ranks, [&](const study::PlannedPoint& p) {
                                return study::describe_values(plan.search.candidates, p);
                              }));
  if (ranks.rank() != 0) {
    return 0;
  }
  int failed = 0;
  for (const auto& text : all) {
    const study::PointOutcome outcome = outcome_of(nlohmann::ordered_json::parse(text));
    study::add_full(result, outcome.index, outcome.result, outcome.error, plan.search.objective);
    failed += outcome.result ? 0 : 1;
  }
  study::rank(result);
  const std::string scenario_text = scenario_as_run(o.scenario, o.settings);
  const fs::path dir(o.out_dir);
  const std::string json_text = report::search_json(result).dump(2) + "\n";
  report::write_file_atomically((dir / "ranking.json").string(), json_text);
  report::write_file_atomically((dir / "ranking.csv").string(),
                                report::frame_csv(report::search_frame(result)));
  report::write_file_atomically(
      (dir / "report.html").string(),
      report::search_html(result, {scenario_text, "codesim " CODESIM_VERSION}));
  if (o.format == report::Format::json) {
    out << json_text;
  } else {
    out << report::search_table(result, static_cast<std::size_t>(top));
  }
  return failed;
}

}  // namespace codesim::cli
