// Comparison rows: one figure per row, one scenario per column, changes against the first.
#include "sim/report/compare_report.hpp"

#include <functional>

#include "sim/report/format.hpp"
#include "sim/report/schema_version.hpp"
#include "sim/report/table.hpp"

namespace codesim::report {
namespace {

using metrics::ComparedScenario;

struct Row {
  const char* key;    // JSON key
  const char* label;  // table label
  double scale;       // table unit
  int digits;
  std::function<double(const ComparedScenario&)> value;
};

const std::vector<Row>& rows() {
  using C = ComparedScenario;
  static const std::vector<Row> out{
      {"endpoints", "endpoints", 1, 0,
       [](const C& c) { return static_cast<double>(c.network.endpoints); }},
      {"switches", "switches", 1, 0,
       [](const C& c) { return static_cast<double>(c.network.switches); }},
      {"links", "switch-to-switch links", 1, 0,
       [](const C& c) { return static_cast<double>(c.network.switch_links); }},
      {"cost_usd", "network cost (M$)", 1e6, 1, [](const C& c) { return c.network.cost_usd; }},
      {"cost_per_endpoint_usd", "cost per endpoint (k$)", 1e3, 2,
       [](const C& c) { return c.cost_per_endpoint_usd; }},
      {"step_time_s", "step time (s)", 1, 3, [](const C& c) { return c.step_time.value; }},
      {"tokens_per_day", "tokens per day (B)", 1e9, 1, [](const C& c) { return c.tokens_per_day; }},
      {"mfu_causal", "MFU, causal (%)", 0.01, 1, [](const C& c) { return c.mfu_causal; }},
      {"cost_per_tokens_per_day_usd", "cost per (B tokens/day) (k$)", 1e3, 1,
       [](const C& c) { return c.cost_per_tokens_per_day_usd; }},
  };
  return out;
}

}  // namespace

nlohmann::ordered_json compare_json(const metrics::Comparison& c) {
  nlohmann::ordered_json scenarios = nlohmann::ordered_json::array();
  for (const auto& s : c) {
    nlohmann::ordered_json j{{"name", s.name}, {"file", s.file}};
    for (const Row& row : rows()) {
      if (row.digits == 0) {  // counts
        j[row.key] = static_cast<long long>(row.value(s));
      } else {
        j[row.key] = row.value(s);
      }
    }
    scenarios.push_back(std::move(j));
  }
  return {{"schema_version", kSchemaVersion}, {"scenarios", scenarios}};
}

std::string compare_table(const metrics::Comparison& c) {
  std::vector<std::string> header{""};
  std::vector<Table::Align> align{Table::Align::left};
  for (const auto& s : c) {
    header.push_back(s.name);
    align.push_back(Table::Align::right);
  }
  Table t(header, align);
  for (const Row& row : rows()) {
    std::vector<std::string> cells{row.label};
    const double first = row.value(c.front());
    for (std::size_t i = 0; i < c.size(); ++i) {
      const double v = row.value(c[i]);
      std::string cell = fixed(v / row.scale, row.digits);
      if (i > 0 && first != 0) {
        const double change = 100 * (v / first - 1);
        cell += " (" + std::string(change >= 0 ? "+" : "") + fixed(change, 1) + "%)";
      }
      cells.push_back(cell);
    }
    t.add_row(cells);
  }
  return t.render() + "differences against " + c.front().name +
         "; costs from the unit prices in each scenario's cost section (topologies/cost.hpp)\n";
}

}  // namespace codesim::report
