// `codesim sweep SCENARIO --out DIR`: every point of the scenario's sweep, each simulated by a
// child `codesim run` (SimGrid allows one engine per process), its result written atomically to
// DIR/points/ as soon as it ends, so that a killed sweep resumes with the points done. Under
// mpirun the points are dealt round-robin over the ranks and rank 0 gathers them into the reports.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim/cli/child_process.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/mpi_ranks.hpp"
#include "sim/cli/usage.hpp"
#include "sim/config/dump.hpp"
#include "sim/config/sweep.hpp"
#include "sim/core/error.hpp"
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

namespace codesim::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

std::string point_file(const std::string& dir, std::size_t i) {
  char name[32];
  std::snprintf(name, sizeof name, "point-%04zu.json", i);
  return (fs::path(dir) / "points" / name).string();
}

// One point: what it runs and, once known, its record (the file's content).
struct PointJob {
  std::size_t index = 0;
  std::vector<std::string> values;  // the varied keys' values, as written
  std::string scenario_yaml;        // the resolved scenario: a stored point is reused only if equal
  std::vector<std::string> args;    // the child's command line
};

// The stored record of a point, if it is one of this sweep's (same resolved scenario).
std::optional<ordered_json> stored_point(const std::string& path, const PointJob& job) {
  if (!fs::exists(path)) {
    return std::nullopt;
  }
  try {
    auto j = ordered_json::parse(core::read_file(path));
    // Reused: a result, or a failure the scenario itself causes (exit 2, say it does not fit);
    // a crash, a kill or a failed start is tried again.
    const int exit_code = j.at("exit_code").get<int>();
    if (j.at("scenario").get<std::string>() == job.scenario_yaml &&
        (exit_code == 0 || exit_code == 2)) {
      return j;
    }
  } catch (const nlohmann::json::exception&) {
  }
  return std::nullopt;  // another sweep's, a transient failure, or unreadable: run it again
}

ordered_json point_record(const PointJob& job, const ChildResult& run) {
  ordered_json j{{"schema_version", report::kSchemaVersion},
                 {"point", job.index},
                 {"values", job.values},
                 {"exit_code", run.exit_code},
                 {"scenario", job.scenario_yaml}};
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

std::string describe_values(const config::Sweep& sweep, const PointJob& job) {
  std::string out;
  for (std::size_t k = 0; k < sweep.axes.size(); ++k) {
    out += (k == 0 ? "" : ", ") + sweep.axes[k].key + "=" + job.values[k];
  }
  return out;
}

}  // namespace

int run_sweep(const SweepOptions& o, std::ostream& out) {
  std::vector<config::Setting> settings;
  for (const auto& a : o.settings) {
    settings.push_back(config::parse_setting(a));
  }
  config::FlatScenario flat = config::read_scenario_yaml(o.scenario);
  config::apply_settings(flat, settings);
  const config::Scenario base = config::decode_scenario(flat, o.scenario);
  const auto sweep = config::read_sweep(flat);
  if (!sweep) {
    throw core::InputError(core::Diagnostic{
        {o.scenario, 0, 0},
        "sweep",
        "the scenario has no sweep: section",
        "add one, e.g. sweep: {routing.node_limit: [1, 2, 4, 8]} (scenarios/SCHEMA.md)"});
  }
  // Every point decodes before any runs: a bad value fails the sweep at once.
  const std::vector<config::Scenario> scenarios =
      config::load_sweep_points(flat, o.scenario, *sweep);
  std::vector<PointJob> jobs;
  for (std::size_t i = 0; i < sweep->points.size(); ++i) {
    PointJob job{i, {}, config::to_yaml(scenarios[i]), {"run", o.scenario}};
    for (const auto& s : settings) {
      job.args.insert(job.args.end(), {"--set", s.key + "=" + s.text()});
    }
    for (const auto& s : sweep->points[i]) {
      job.values.push_back(s.text());
      job.args.insert(job.args.end(), {"--set", s.key + "=" + s.text()});
    }
    job.args.insert(job.args.end(), {"--format", "json"});
    jobs.push_back(std::move(job));
  }
  metrics::SweepResult result{
      base.name, sweep->mode == config::SweepMode::zip ? "zip" : "cartesian", {}, {}};
  for (const auto& a : sweep->axes) {
    result.keys.push_back(a.key);
  }
  if (o.dry_run) {
    std::vector<std::string> header{"point"};
    header.insert(header.end(), result.keys.begin(), result.keys.end());
    report::Table t(header, std::vector(header.size(), report::Table::Align::right));
    for (const auto& job : jobs) {
      std::vector<std::string> row{std::to_string(job.index)};
      row.insert(row.end(), job.values.begin(), job.values.end());
      t.add_row(row);
    }
    out << result.scenario << ": " << jobs.size() << " points (" << result.mode
        << "), every one checked, none run\n"
        << t.render();
    return 0;
  }
  if (o.out_dir.empty()) {
    throw_usage_error("sweep", "give --out DIR for the points and the reports");
  }

  const MpiRanks ranks;
  // This rank's points, minus those a previous run already wrote.
  std::vector<std::string> mine;
  std::vector<std::size_t> to_run;
  for (const auto& job : jobs) {
    if (static_cast<int>(job.index % static_cast<std::size_t>(ranks.size())) != ranks.rank()) {
      continue;
    }
    if (const auto stored = stored_point(point_file(o.out_dir, job.index), job)) {
      mine.push_back(stored->dump());
    } else {
      to_run.push_back(job.index);
    }
  }
  progress("sweep", std::to_string(mine.size()) + " points already in " + o.out_dir + ", " +
                        std::to_string(to_run.size()) + " to run" +
                        (ranks.size() > 1 ? " on rank " + std::to_string(ranks.rank()) : ""));
  std::vector<std::vector<std::string>> runs;
  for (const std::size_t i : to_run) {
    runs.push_back(jobs[i].args);
  }
  std::size_t finished = 0;
  run_self_all(runs, o.jobs, [&](std::size_t k, const ChildResult& run) {
    const PointJob& job = jobs[to_run[k]];
    const ordered_json record = point_record(job, run);
    report::write_file_atomically(point_file(o.out_dir, job.index), record.dump(1) + "\n");
    mine.push_back(record.dump());
    ++finished;
    progress(
        "sweep",
        std::to_string(finished) + "/" + std::to_string(to_run.size()) + " point " +
            std::to_string(job.index) + " (" + describe_values(*sweep, job) + "): " +
            (run.exit_code == 0
                 ? "step " + report::fixed(record["result"]["step_time_s"].get<double>(), 3) + " s"
                 : "failed"));
  });

  const std::vector<std::string> all = ranks.gather(mine);
  if (ranks.rank() != 0) {
    return 0;
  }
  result.points.resize(jobs.size());
  for (const auto& text : all) {
    const auto j = ordered_json::parse(text);
    auto& p = result.points.at(j.at("point").get<std::size_t>());
    p.values = j.at("values").get<std::vector<std::string>>();
    p.error = j.at("error").get<std::string>();
    if (!j.at("result").is_null()) {
      p.result = report::run_from_json(j.at("result"));
    }
  }
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
  if (o.format == "json") {
    out << json_text;
  } else if (o.format == "csv") {
    out << report::sweep_csv(result);
  } else if (o.format == "md") {
    out << report::sweep_markdown(result);
  } else {
    out << report::sweep_table(result);
  }
  return failed;
}

}  // namespace codesim::cli
