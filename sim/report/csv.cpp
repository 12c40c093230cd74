// CSV writers.
#include "sim/report/csv.hpp"

#include "sim/core/quantity_parse.hpp"
#include "sim/report/columns.hpp"

namespace codesim::report {
namespace {

// A field quoted when it holds a comma, a quote or a line break; quotes doubled.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) {
    return text;
  }
  std::string out = "\"";
  for (const char c : text) {
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  }
  return out + "\"";
}

}  // namespace

std::string csv_row(const std::vector<std::string>& cells) {
  std::string out;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    out += (i == 0 ? "" : ",") + csv_field(cells[i]);
  }
  return out + "\r\n";
}

namespace {

void add_step(std::vector<std::string>& cells, const metrics::RunResult* r) {
  for (const auto& c : step_columns()) {
    cells.push_back(r != nullptr ? core::format_number(c.value(*r)) : "");
  }
}

void add_step_header(std::vector<std::string>& cells) {
  for (const auto& c : step_columns()) {
    cells.push_back(c.name);
  }
}

}  // namespace

std::string run_csv(const metrics::RunResult& r) {
  std::vector<std::string> header{"scenario"};
  add_step_header(header);
  std::vector<std::string> cells{r.scenario};
  add_step(cells, &r);
  return csv_row(header) + csv_row(cells);
}

std::string sweep_csv(const metrics::SweepResult& s) {
  std::vector<std::string> header{"point"};
  header.insert(header.end(), s.keys.begin(), s.keys.end());
  add_step_header(header);
  header.push_back("error");
  std::string out = csv_row(header);
  for (std::size_t i = 0; i < s.points.size(); ++i) {
    const auto& p = s.points[i];
    std::vector<std::string> cells{std::to_string(i)};
    cells.insert(cells.end(), p.values.begin(), p.values.end());
    add_step(cells, p.result ? &*p.result : nullptr);
    cells.push_back(p.error);
    out += csv_row(cells);
  }
  return out;
}

std::string inference_csv(const metrics::InferenceResult& r) {
  std::vector<std::string> header{"scenario", "phase", "mode"};
  std::vector<std::string> row{r.scenario, std::string(metrics::inference_phase_name(r.phase)),
                               std::string(metrics::inference_mode_name(r.mode))};
  for (const auto& c : inference_columns()) {
    header.push_back(c.name);
    row.push_back(core::format_number(c.value(r)));
  }
  return csv_row(header) + csv_row(row);
}

std::string search_csv(const metrics::SearchResult& s) {
  std::vector<std::string> header{"rank"};
  header.insert(header.end(), s.keys.begin(), s.keys.end());
  for (const char* h : {"base", "tier", "step_time_s", "tokens_per_day", "mfu_causal", "memory_gb",
                        "network_usd", "objective", "fast_step_time_s", "rejected"}) {
    header.emplace_back(h);
  }
  std::string out = csv_row(header);
  for (std::size_t i = 0; i < s.entries.size(); ++i) {
    const auto& e = s.entries[i];
    std::vector<std::string> row{std::to_string(i + 1)};
    row.insert(row.end(), e.values.begin(), e.values.end());
    row.emplace_back(e.base ? "yes" : "no");
    const metrics::RunResult* r = e.full ? &*e.full : e.fast ? &*e.fast : nullptr;
    if (r != nullptr && e.rejected.empty()) {
      row.emplace_back(e.full ? "full" : "fast");
      for (const double v :
           {r->step_time.value, r->tokens_per_day, r->mfu_causal, r->memory.total().value / 1e9,
            r->network.cost_usd, e.objective, e.fast->step_time.value}) {
        row.push_back(core::format_number(v));
      }
    } else {
      row.insert(row.end(), 8, "");
    }
    row.push_back(e.rejected.empty() ? e.full_error : e.rejected);
    out += csv_row(row);
  }
  return out;
}

}  // namespace codesim::report
