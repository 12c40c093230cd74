// `codesim compare A.yaml B.yaml ...`: topology cost and training throughput side by side, each
// scenario simulated in its own codesim process, differences against the first.
#include <cmath>
#include <nlohmann/json.hpp>
#include <ostream>

#include "sim/cli/child_process.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/usage.hpp"
#include "sim/config/loader.hpp"
#include "sim/core/error.hpp"
#include "sim/report/format.hpp"
#include "sim/report/run_report.hpp"
#include "sim/report/schema_version.hpp"
#include "sim/report/table.hpp"

namespace codesim::cli {
namespace {

using nlohmann::ordered_json;
using report::fixed;

struct Row {
  const char* key;    // JSON key
  const char* label;  // table label
  double scale;       // table unit
  int digits;
};

const Row kRows[] = {
    {"endpoints", "endpoints", 1, 0},
    {"switches", "switches", 1, 0},
    {"links", "switch-to-switch links", 1, 0},
    {"cost_usd", "network cost (M$)", 1e6, 1},
    {"cost_per_endpoint_usd", "cost per endpoint (k$)", 1e3, 2},
    {"step_time_s", "step time (s)", 1, 3},
    {"tokens_per_day", "tokens per day (B)", 1e9, 1},
    {"mfu_causal", "MFU, causal (%)", 0.01, 1},
    {"cost_per_tokens_per_day_usd", "cost per (B tokens/day) (k$)", 1e3, 1},
};

// The compared figures of one scenario, from its child's run report.
ordered_json measure(const std::string& path, const ChildResult& run) {
  if (run.exit_code != 0) {
    throw core::SimulationError(path + ": " + run.error_message());
  }
  const metrics::RunResult r = report::run_from_json(ordered_json::parse(run.out));
  const auto& n = r.network;
  return ordered_json{{"name", r.scenario},
                      {"file", path},
                      {"endpoints", n.endpoints},
                      {"switches", n.switches},
                      {"links", n.switch_links},
                      {"cost_usd", n.cost_usd},
                      {"cost_per_endpoint_usd",
                       n.endpoints > 0 ? n.cost_usd / static_cast<double>(n.endpoints) : 0.0},
                      {"step_time_s", r.step_time.value},
                      {"tokens_per_day", r.tokens_per_day},
                      {"mfu_causal", r.mfu_causal},
                      {"cost_per_tokens_per_day_usd", n.cost_usd / (r.tokens_per_day / 1e9)}};
}

}  // namespace

void run_compare(const CompareOptions& o, std::ostream& out) {
  if (o.scenarios.size() < 2) {
    throw_usage_error("compare", "give at least two scenarios to compare");
  }
  // Every scenario loads before any runs: a typo in the last one fails at once.
  for (const auto& path : o.scenarios) {
    config::load_scenario(path);
  }
  std::vector<std::vector<std::string>> runs;
  for (const auto& path : o.scenarios) {
    runs.push_back({"run", path, "--format", "json"});
  }
  const auto results = run_self_all(runs, o.jobs);
  ordered_json rows = ordered_json::array();
  for (std::size_t i = 0; i < o.scenarios.size(); ++i) {
    rows.push_back(measure(o.scenarios[i], results[i]));
  }
  if (o.format == "json") {
    out << ordered_json{{"schema_version", report::kSchemaVersion}, {"scenarios", rows}}.dump(2)
        << "\n";
    return;
  }
  std::vector<std::string> header{""};
  std::vector<report::Table::Align> align{report::Table::Align::left};
  for (const auto& r : rows) {
    header.push_back(r["name"].get<std::string>());
    align.push_back(report::Table::Align::right);
  }
  report::Table t(header, align);
  for (const Row& row : kRows) {
    std::vector<std::string> cells{row.label};
    const double first = rows[0][row.key].get<double>();
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const double v = rows[i][row.key].get<double>();
      std::string cell = fixed(v / row.scale, row.digits);
      if (i > 0 && first != 0) {
        const double change = 100 * (v / first - 1);
        cell += " (" + std::string(change >= 0 ? "+" : "") + fixed(change, 1) + "%)";
      }
      cells.push_back(cell);
    }
    t.add_row(cells);
  }
  out << t.render();
  out << "differences against " << rows[0]["name"].get<std::string>()
      << "; costs from the unit prices in each scenario's cost section (topologies/cost.hpp)\n";
}

}  // namespace codesim::cli
