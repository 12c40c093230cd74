// `codesim sweep SCENARIO --out DIR`: the points sim/study plans, each simulated by a child
// `codesim run` (SimGrid allows one engine per process), its record written atomically to
// DIR/points/ as soon as it ends, so that a killed sweep resumes with the points done. Under
// mpirun the points are dealt round-robin over the ranks and rank 0 gathers them into the reports.
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "sim/cli/child_process.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/mpi_ranks.hpp"
#include "sim/cli/usage.hpp"
#include "sim/core/text.hpp"
#include "sim/report/atomic_file.hpp"
#include "sim/report/csv.hpp"
#include "sim/report/format.hpp"
#include "sim/report/html_report.hpp"
#include "sim/report/markdown.hpp"
#include "sim/report/run_report.hpp"
#include "sim/report/schema_version.hpp"
#include "sim/report/sweep_report.hpp"
#include "sim/report/table.hpp"
#include "sim/study/sweep_plan.hpp"

namespace codesim::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::ordered_json;
using report::Format;

std::string point_file(const std::string& dir, std::size_t i) {
  char name[32];
  std::snprintf(name, sizeof name, "point-%04zu.json", i);
  return (fs::path(dir) / "points" / name).string();
}

// The stored record of a point, if the plan may reuse it.
std::optional<ordered_json> stored_point(const std::string& path, const study::PlannedPoint& p) {
  if (!fs::exists(path)) {
    return std::nullopt;
  }
  try {
    auto j = ordered_json::parse(core::read_file(path));
    if (study::reusable(p, j.at("scenario").get<std::string>(), j.at("exit_code").get<int>())) {
      return j;
    }
  } catch (const nlohmann::json::exception&) {
  }
  return std::nullopt;  // another sweep's, a transient failure, or unreadable: run it again
}

ordered_json point_record(const study::PlannedPoint& p, const ChildResult& run) {
  ordered_json j{{"schema_version", report::kSchemaVersion},
                 {"point", p.index},
                 {"values", p.values},
                 {"exit_code", run.exit_code},
                 {"scenario", p.scenario_yaml}};
  if (run.exit_code == 0) {
    j["result"] = ordered_json::parse(run.out);
    j["error"] = "";
  } else {
    const std::string error = run.error_message();
    j["result"] = nullptr;
    j["error"] = error.empty() ? "exit code " + std::to_string(run.exit_code) : error;
  }
  return j;
}

study::PointOutcome outcome_of(const ordered_json& j) {
  study::PointOutcome o{.index = j.at("point").get<std::size_t>(),
                        .values = j.at("values").get<std::vector<std::string>>(),
                        .error = j.at("error").get<std::string>()};
  if (!j.at("result").is_null()) {
    o.result = report::run_from_json(j.at("result"));
  }
  return o;
}

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

// Runs this rank's points that no earlier run stored; returns the records of all its points.
std::vector<std::string> run_points(const study::SweepPlan& plan, const SweepOptions& o,
                                    const MpiRanks& ranks) {
  std::vector<std::string> mine;
  std::vector<std::size_t> to_run;
  for (const auto& p : plan.points) {
    if (static_cast<int>(p.index % static_cast<std::size_t>(ranks.size())) != ranks.rank()) {
      continue;
    }
    if (const auto stored = stored_point(point_file(o.out_dir, p.index), p)) {
      mine.push_back(stored->dump());
    } else {
      to_run.push_back(p.index);
    }
  }
  progress("sweep", std::to_string(mine.size()) + " points already in " + o.out_dir + ", " +
                        std::to_string(to_run.size()) + " to run" +
                        (ranks.size() > 1 ? " on rank " + std::to_string(ranks.rank()) : ""));
  std::vector<std::vector<std::string>> runs;
  for (const std::size_t i : to_run) {
    runs.push_back(plan.points[i].args);
  }
  std::size_t finished = 0;
  run_self_all(runs, o.jobs, [&](std::size_t k, const ChildResult& run) {
    const study::PlannedPoint& p = plan.points[to_run[k]];
    const ordered_json record = point_record(p, run);
    report::write_file_atomically(point_file(o.out_dir, p.index), record.dump(1) + "\n");
    mine.push_back(record.dump());
    ++finished;
    progress(
        "sweep",
        std::to_string(finished) + "/" + std::to_string(to_run.size()) + " point " +
            std::to_string(p.index) + " (" + study::describe_values(plan, p) + "): " +
            (run.exit_code == 0
                 ? "step " + report::fixed(record["result"]["step_time_s"].get<double>(), 3) + " s"
                 : "failed"));
  });
  return mine;
}

}  // namespace

int run_sweep(const SweepOptions& o, std::ostream& out) {
  const study::SweepPlan plan = study::plan_sweep(o.scenario, config::parse_settings(o.settings));
  if (o.dry_run) {
    out << dry_run_table(plan);
    return 0;
  }
  if (o.out_dir.empty()) {
    throw_usage_error("sweep", "give --out DIR for the points and the reports");
  }
  const MpiRanks ranks;
  const std::vector<std::string> all = ranks.gather(run_points(plan, o, ranks));
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
  std::string scenario_text = core::read_file(o.scenario);
  for (const auto& a : o.settings) {
    scenario_text += "# --set " + a + "\n";
  }
  const fs::path dir(o.out_dir);
  const std::string json_text = report::sweep_json(result).dump(2) + "\n";
  report::write_file_atomically((dir / "results.json").string(), json_text);
  report::write_file_atomically((dir / "results.csv").string(), report::sweep_csv(result));
  report::write_file_atomically(
      (dir / "report.html").string(),
      report::sweep_html(result, {scenario_text, "codesim " CODESIM_VERSION}));
  switch (o.format) {
    case Format::json:
      out << json_text;
      break;
    case Format::csv:
      out << report::sweep_csv(result);
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
