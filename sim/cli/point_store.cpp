// Point records on disk and the child runs that make them.
#include "sim/cli/point_store.hpp"

#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>

#include "sim/cli/usage.hpp"
#include "sim/core/text.hpp"
#include "sim/metrics/result_record.hpp"
#include "sim/report/atomic_file.hpp"
#include "sim/report/format.hpp"
#include "sim/report/schema_version.hpp"
#include "sim/study/point_runs.hpp"

namespace codesim::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

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
  return std::nullopt;  // another run's, a transient failure, or unreadable: run it again
}

ordered_json point_record(const study::PlannedPoint& p, const study::PointOutcome& run) {
  ordered_json j{{"schema_version", report::kSchemaVersion},
                 {"point", p.index},
                 {"values", p.values},
                 {"exit_code", run.exit_code},
                 {"scenario", p.scenario_yaml}};
  if (run.result) {
    // The step's figures; not its ranks' lanes (a single run's timeline), which would make a
    // point file megabytes.
    metrics::RunResult figures = *run.result;
    figures.lanes.clear();
    j["result"] = metrics::record_json(figures);
    j["error"] = "";
  } else {
    j["result"] = nullptr;
    j["error"] = run.error;
  }
  return j;
}

}  // namespace

std::string scenario_as_run(const std::string& path, const std::vector<std::string>& settings) {
  std::string text = core::read_file(path);
  for (const auto& a : settings) {
    text += "# --set " + a + "\n";
  }
  return text;
}

study::PointOutcome outcome_of(const ordered_json& j) {
  study::PointOutcome o{.index = j.at("point").get<std::size_t>(),
                        .values = j.at("values").get<std::vector<std::string>>(),
                        .error = j.at("error").get<std::string>()};
  if (!j.at("result").is_null()) {
    o.result = metrics::from_record_json<metrics::RunResult>(j.at("result"));
  }
  return o;
}

std::vector<std::string> run_points(
    const std::vector<const study::PlannedPoint*>& points, const PointRunOptions& o,
    const MpiRanks& ranks, const std::function<std::string(const study::PlannedPoint&)>& describe) {
  std::vector<std::string> mine;
  std::vector<const study::PlannedPoint*> to_run;
  for (std::size_t k = 0; k < points.size(); ++k) {
    if (static_cast<int>(k % static_cast<std::size_t>(ranks.size())) != ranks.rank()) {
      continue;
    }
    if (const auto stored = stored_point(point_file(o.out_dir, points[k]->index), *points[k])) {
      mine.push_back(stored->dump());
    } else {
      to_run.push_back(points[k]);
    }
  }
  progress(o.command, std::to_string(mine.size()) + " points already in " + o.out_dir + ", " +
                          std::to_string(to_run.size()) + " to run" +
                          (ranks.size() > 1 ? " on rank " + std::to_string(ranks.rank()) : ""));
  std::map<std::size_t, const study::PlannedPoint*> by_index;
  for (const auto* p : to_run) {
    by_index[p->index] = p;
  }
  std::size_t finished = 0;
  auto on_done = [&](const study::PointOutcome& run) {
    const study::PlannedPoint& p = *by_index.at(run.index);
    const ordered_json record = point_record(p, run);
    report::write_file_atomically(point_file(o.out_dir, p.index), record.dump(1) + "\n");
    mine.push_back(record.dump());
    ++finished;
    progress(o.command,
             std::to_string(finished) + "/" + std::to_string(to_run.size()) + " point " +
                 std::to_string(p.index) + " (" + describe(p) + "): " +
                 (run.result ? "step " + report::fixed(run.result->step_time.value, 3) + " s"
                             : "failed"));
  };
  study::simulate_points(to_run, {.jobs = o.jobs, .on_done = on_done});
  return mine;
}

}  // namespace codesim::cli
