// Comparison rows: one figure per row, one scenario per column, changes against the first.
#include "sim/report/compare_report.hpp"

#include <functional>

#include "sim/core/quantity_parse.hpp"
#include "sim/report/csv.hpp"
#include "sim/report/format.hpp"
#include "sim/report/labels.hpp"
#include "sim/report/markdown.hpp"
#include "sim/report/schema_version.hpp"
#include "sim/report/svg_chart.hpp"
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

Frame compare_frame(const metrics::Comparison& c) {
  Frame f{.columns = {"name", "file"}, .rows = {}};
  for (const Row& row : rows()) {
    f.columns.emplace_back(row.key);
  }
  for (const auto& s : c) {
    std::vector<Cell> cells{s.name, s.file};
    for (const Row& row : rows()) {
      // As the JSON gives it: counts whole, the rest at full precision.
      const double v = row.value(s);
      cells.push_back(row.digits == 0 ? Cell(static_cast<long long>(v)) : Cell(v));
    }
    f.rows.push_back(std::move(cells));
  }
  return f;
}

std::string compare_markdown(const metrics::Comparison& c) {
  std::vector<std::string> header{""};
  for (const auto& s : c) {
    header.push_back(s.name);
  }
  std::string out = md_row(header) + md_rule(header.size(), 1);
  for (const Row& row : rows()) {
    std::vector<std::string> cells{row.label};
    for (const auto& s : c) {
      cells.push_back(fixed(row.value(s) / row.scale, row.digits));
    }
    out += md_row(cells);
  }
  return out + "\nDifferences against " + c.front().name + ": `codesim compare`'s table.\n";
}

std::string compare_html(const metrics::Comparison& c, const PageFooter& footer) {
  std::string out = open_page("codesim compare: " + c.front().name + " and " +
                              std::to_string(c.size() - 1) + " more");
  Scatter front{.title = "network cost against tokens per day",
                .x_label = "network cost (USD)",
                .y_label = "tokens per day",
                .points = {}};
  std::vector<std::string> names;
  std::vector<const metrics::RunResult*> runs;
  for (std::size_t i = 0; i < c.size(); ++i) {
    front.points.push_back({c[i].network.cost_usd, c[i].tokens_per_day,
                            c[i].name + " (" + c[i].network.family + ")", i == 0});
    names.push_back(c[i].name);
    runs.push_back(&c[i].run);
  }
  out += "<h2>Network cost against throughput</h2>\n" + scatter_svg(front) +
         "\n<p>Line and larger marks: the Pareto front (nothing cheaper carries more tokens per "
         "day); ring: the first scenario, the base. Hover a point for its name.</p>\n";
  out += "<h2>Networks</h2>\n" +
         stacked_bars_svg({"network cost per endpoint",
                           names,
                           {{"cost per endpoint (USD)",
                             [&] {
                               std::vector<double> v;
                               for (const auto& s : c) {
                                 v.push_back(s.cost_per_endpoint_usd);
                               }
                               return v;
                             }()}},
                           "USD per endpoint",
                           "scenario"}) +
         "\n";
  std::vector<std::vector<std::string>> figures;
  for (const Row& row : rows()) {
    std::vector<std::string> cells{row.label};
    for (const auto& s : c) {
      cells.push_back(fixed(row.value(s) / row.scale, row.digits));
    }
    figures.push_back(std::move(cells));
  }
  std::vector<std::string> header{""};
  header.insert(header.end(), names.begin(), names.end());
  out += html_table(header, figures);
  Chart breakdown = breakdown_chart(names, runs);
  breakdown.x_label = "scenario";
  out += "<h2>Step time</h2>\n" + stacked_bars_svg(breakdown) + "\n";
  out += "<h2>Busiest links and link tiers</h2>\n";
  for (const auto& s : c) {
    std::vector<std::vector<std::string>> links;
    for (const auto& l : s.run.busiest_links) {
      links.push_back(link_row(l));
    }
    std::vector<std::vector<std::string>> tiers;
    for (const auto& t : s.run.tiers) {
      tiers.push_back(tier_row(t));
    }
    out += "<h3>" + escape_xml(s.name) + " (" + escape_xml(s.network.family) + ", " +
           escape_xml(s.file) + ")</h3>\n" + html_table(link_header(), links) +
           (tiers.empty() ? "" : html_table(tier_header(), tiers));
  }
  return out + footer_html(footer);
}

}  // namespace codesim::report
