// Search writers.
#include "sim/report/search_report.hpp"

#include <map>

#include "sim/report/format.hpp"
#include "sim/report/run_report.hpp"
#include "sim/report/schema_version.hpp"
#include "sim/report/svg_chart.hpp"
#include "sim/report/sweep_report.hpp"
#include "sim/report/table.hpp"

namespace codesim::report {
namespace {

using metrics::SearchEntry;

// The figures a kept entry is ranked by: the full tier's when it ran, else the fast tier's.
const metrics::RunResult* ranked(const SearchEntry& e) {
  if (!e.rejected.empty()) {
    return nullptr;
  }
  return e.full ? &*e.full : e.fast ? &*e.fast : nullptr;
}

std::string values_of(const SearchEntry& e) {
  std::string out;
  for (const auto& v : e.values) {
    out += (out.empty() ? "" : " / ") + v;
  }
  return out;
}

std::string keys_of(const metrics::SearchResult& s) {
  std::string out;
  for (const auto& k : s.keys) {
    out += (out.empty() ? "" : " / ") + k;
  }
  return out;
}

// Row cells of a kept entry: tier, step, tokens/day, MFU, memory, network cost.
std::vector<std::string> figures(const SearchEntry& e) {
  const metrics::RunResult* r = ranked(e);
  if (r == nullptr) {
    return {"rejected", "", "", "", "", ""};
  }
  return {e.full ? "full" : "fast",
          fixed(r->step_time.value, 3),
          fixed(r->tokens_per_day / 1e9, 1),
          fixed(100 * r->mfu_causal, 1),
          fixed(r->memory.total().value / 1e9, 1),
          fixed(r->network.cost_usd / 1e6, 2)};
}

const std::vector<std::string> kFigureHeader{"tier",    "step (s)",      "B tokens/day",
                                             "MFU (%)", "memory (GB)",   "network (M$)"};

std::vector<std::vector<std::string>> rows_of(const metrics::SearchResult& s, std::size_t rows) {
  std::vector<std::vector<std::string>> out;
  for (std::size_t i = 0; i < s.entries.size(); ++i) {
    const auto& e = s.entries[i];
    if (i >= rows && !(e.base && e.rejected.empty())) {
      continue;
    }
    if (!e.rejected.empty()) {
      break;  // the rejected come last
    }
    std::vector<std::string> row{std::to_string(i + 1) + (e.base ? " (as written)" : "")};
    row.insert(row.end(), e.values.begin(), e.values.end());
    const auto f = figures(e);
    row.insert(row.end(), f.begin(), f.end());
    out.push_back(std::move(row));
  }
  return out;
}

std::vector<std::string> header_of(const metrics::SearchResult& s) {
  std::vector<std::string> header{"rank"};
  header.insert(header.end(), s.keys.begin(), s.keys.end());
  header.insert(header.end(), kFigureHeader.begin(), kFigureHeader.end());
  return header;
}

// Rejections grouped by reason: "12 x parallelism.dp: pp x dp x ...".
std::vector<std::pair<std::string, int>> rejections(const metrics::SearchResult& s) {
  std::map<std::string, int> count;
  std::vector<std::string> order;
  for (const auto& e : s.entries) {
    if (!e.rejected.empty() && count[e.rejected]++ == 0) {
      order.push_back(e.rejected);
    }
  }
  std::vector<std::pair<std::string, int>> out;
  for (const auto& r : order) {
    out.emplace_back(r, count[r]);
  }
  return out;
}

}  // namespace

nlohmann::ordered_json search_json(const metrics::SearchResult& s) {
  nlohmann::ordered_json j;
  j["schema_version"] = kSchemaVersion;
  j["scenario"] = s.scenario;
  j["objective"] = s.objective;
  j["max_network_usd"] =
      s.max_network_usd ? nlohmann::ordered_json(*s.max_network_usd) : nlohmann::ordered_json();
  j["top"] = s.top;
  j["keys"] = s.keys;
  auto ranking = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < s.entries.size(); ++i) {
    const auto& e = s.entries[i];
    const bool kept = e.rejected.empty();
    ranking.push_back(
        {{"rank", i + 1},
         {"values", values_json(s.keys, e.values)},
         {"base", e.base},
         {"tier", kept ? nlohmann::ordered_json(e.full ? "full" : "fast") : nlohmann::ordered_json()},
         {"objective", e.objective},
         {"fast", e.fast ? run_json(*e.fast) : nlohmann::ordered_json()},
         {"full", e.full ? run_json(*e.full) : nlohmann::ordered_json()},
         {"rejected", e.rejected},
         {"full_error", e.full_error}});
  }
  j["ranking"] = ranking;
  return j;
}

std::string search_table(const metrics::SearchResult& s, std::size_t rows) {
  const std::vector<std::string> header = header_of(s);
  Table t(header, std::vector(header.size(), Table::Align::right));
  for (const auto& row : rows_of(s, rows)) {
    t.add_row(row);
  }
  std::size_t kept = 0;
  for (const auto& e : s.entries) {
    kept += e.rejected.empty() ? 1 : 0;
  }
  std::string out = s.scenario + ": " + std::to_string(s.entries.size()) + " configurations, " +
                    std::to_string(kept) + " screened by the fast tier, the best " +
                    std::to_string(s.top) + " simulated in full; ranked by " + s.objective +
                    "\n" + t.render();
  for (const auto& [why, n] : rejections(s)) {
    out += "rejected " + std::to_string(n) + ": " + why + "\n";
  }
  for (const auto& e : s.entries) {
    if (!e.full_error.empty()) {
      out += "full simulation failed (" + values_of(e) + "): " + e.full_error + "\n";
    }
  }
  return out;
}

std::string search_html(const metrics::SearchResult& s, const PageFooter& footer) {
  std::string out = open_page("codesim search: " + s.scenario);
  out += "<p>Ranked by " + escape_xml(s.objective) + ". Every configuration screened by the fast " +
         "tier (critical path, transfers timed alone); the best " + std::to_string(s.top) +
         " simulated in full (SimGrid).</p>\n";
  Scatter front{.title = "network cost against tokens per day",
                .x_label = "network cost (USD)",
                .y_label = "tokens per day",
                .points = {}};
  for (const auto& e : s.entries) {
    if (const auto* r = ranked(e)) {
      front.points.push_back({r->network.cost_usd, r->tokens_per_day,
                              values_of(e) + " (" + (e.full ? "full" : "fast") + ")", e.base});
    }
  }
  out += "<h2>Pareto front: network cost against throughput</h2>\n" + scatter_svg(front) +
         "\n<p>Filled: screened or simulated configurations; line and larger marks: the Pareto " +
         "front; ring: the scenario as written. Hover a point for its values (" +
         escape_xml(keys_of(s)) + ").</p>\n";
  std::vector<std::string> names;
  std::vector<const metrics::RunResult*> results;
  for (const auto& e : s.entries) {
    if (e.full && e.rejected.empty()) {
      names.push_back(values_of(e));
      results.push_back(&*e.full);
    }
  }
  if (!results.empty()) {
    Chart breakdown = breakdown_chart(names, results);
    breakdown.x_label = keys_of(s);
    out += "<h2>The best configurations, simulated in full</h2>\n" + stacked_bars_svg(breakdown) +
           "\n";
  }
  out += "<h2>Ranking</h2>\n" + html_table(header_of(s), rows_of(s, s.entries.size()));
  std::vector<std::vector<std::string>> rejected;
  for (const auto& [why, n] : rejections(s)) {
    rejected.push_back({std::to_string(n), why});
  }
  if (!rejected.empty()) {
    out += "<h2>Rejected</h2>\n" + html_table({"configurations", "why"}, rejected);
  }
  return out + footer_html(footer);
}

}  // namespace codesim::report
