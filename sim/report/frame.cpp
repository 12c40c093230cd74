// The training and inference steps' frames, and CSV from any frame.
#include "sim/report/frame.hpp"

#include <functional>
#include <utility>

#include "sim/core/quantity_parse.hpp"
#include "sim/report/columns.hpp"
#include "sim/report/csv.hpp"

namespace codesim::report {
namespace {

std::string cell_text(const Cell& c) {
  if (const auto* n = std::get_if<long long>(&c)) {
    return std::to_string(*n);
  }
  if (const auto* v = std::get_if<double>(&c)) {
    return core::format_number(*v);
  }
  if (const auto* t = std::get_if<std::string>(&c)) {
    return *t;
  }
  return "";
}

void add_step_columns(std::vector<std::string>& columns) {
  for (const auto& c : step_columns()) {
    columns.push_back(c.name);
  }
}

// The step columns' cells of `r`, empty ones without it.
void add_step(std::vector<Cell>& row, const metrics::RunResult* r) {
  for (const auto& c : step_columns()) {
    row.push_back(r != nullptr ? Cell(c.value(*r)) : Cell());
  }
}

template <class Range>
void add_text(std::vector<Cell>& row, const Range& texts) {
  row.insert(row.end(), texts.begin(), texts.end());
}

// A campaign's figures, in campaign_sweep_frame's order.
struct CampaignColumn {
  std::string name;
  std::function<double(const metrics::CampaignResult&)> value;
};
std::vector<CampaignColumn> campaign_columns() {
  using R = metrics::CampaignResult;
  std::vector<CampaignColumn> c{
      {"step_time_s", [](const R& r) { return r.step_time.value; }},
      {"checkpoint_interval_s", [](const R& r) { return r.checkpoint_interval.value; }},
      {"mean_restart_s", [](const R& r) { return r.mean_restart.value; }},
      {"mtbf_h", [](const R& r) { return r.mtbf_hours; }}};
  for (const auto& quantiles :
       {std::pair{"days", &R::days}, std::pair{"gpu_hours", &R::gpu_hours},
        std::pair{"interruptions", &R::interruptions}, std::pair{"cost_usd", &R::cost_usd},
        std::pair{"energy_mwh", &R::energy_mwh}}) {
    const std::string n(quantiles.first);
    const auto q = quantiles.second;
    c.push_back({n + "_p10", [q](const R& r) { return (r.*q).p10; }});
    c.push_back({n + "_p50", [q](const R& r) { return (r.*q).p50; }});
    c.push_back({n + "_p90", [q](const R& r) { return (r.*q).p90; }});
    c.push_back({n + "_expected", [q](const R& r) { return (r.*q).expected; }});
  }
  c.push_back({"ettr_mean", [](const R& r) { return r.ettr_mean; }});
  c.push_back({"ettr_expected", [](const R& r) { return r.ettr_expected; }});
  c.push_back({"checkpoints", [](const R& r) { return r.checkpoints; }});
  return c;
}

}  // namespace

std::string frame_csv(const Frame& f) {
  std::string out = csv_row(f.columns);
  for (const auto& row : f.rows) {
    std::vector<std::string> cells;
    for (const Cell& c : row) {
      cells.push_back(cell_text(c));
    }
    out += csv_row(cells);
  }
  return out;
}

Frame run_frame(const metrics::RunResult& r) {
  Frame f{.columns = {"scenario"}, .rows = {{r.scenario}}};
  add_step_columns(f.columns);
  add_step(f.rows.front(), &r);
  return f;
}

Frame inference_frame(const metrics::InferenceResult& r) {
  Frame f{.columns = {"scenario", "phase", "mode"},
          .rows = {{r.scenario, std::string(metrics::inference_phase_name(r.phase)),
                    std::string(metrics::inference_mode_name(r.mode))}}};
  for (const auto& c : inference_columns()) {
    f.columns.push_back(c.name);
    f.rows.front().emplace_back(c.value(r));
  }
  return f;
}

std::vector<std::string> sweep_columns(const std::vector<std::string>& keys) {
  std::vector<std::string> columns{"point"};
  columns.insert(columns.end(), keys.begin(), keys.end());
  add_step_columns(columns);
  columns.emplace_back("error");
  return columns;
}

std::vector<Cell> sweep_row(std::size_t index, const metrics::SweepPoint& p) {
  std::vector<Cell> row{static_cast<long long>(index)};
  add_text(row, p.values);
  add_step(row, p.result ? &*p.result : nullptr);
  row.emplace_back(p.error);
  return row;
}

Frame sweep_frame(const metrics::SweepResult& s) {
  Frame f{.columns = sweep_columns(s.keys), .rows = {}};
  for (std::size_t i = 0; i < s.points.size(); ++i) {
    f.rows.push_back(sweep_row(i, s.points[i]));
  }
  return f;
}

Frame search_frame(const metrics::SearchResult& s) {
  Frame f{.columns = {"rank"}, .rows = {}};
  f.columns.insert(f.columns.end(), s.keys.begin(), s.keys.end());
  for (const char* h : {"base", "tier", "step_time_s", "tokens_per_day", "mfu_causal", "memory_gb",
                        "network_usd", "objective", "fast_step_time_s", "rejected"}) {
    f.columns.emplace_back(h);
  }
  for (std::size_t i = 0; i < s.entries.size(); ++i) {
    const auto& e = s.entries[i];
    std::vector<Cell> row{static_cast<long long>(i + 1)};
    add_text(row, e.values);
    row.emplace_back(std::string(e.base ? "yes" : "no"));
    const metrics::RunResult* r = e.full ? &*e.full : e.fast ? &*e.fast : nullptr;
    if (r != nullptr && e.rejected.empty()) {
      row.emplace_back(std::string(e.full ? "full" : "fast"));
      for (const double v :
           {r->step_time.value, r->tokens_per_day, r->mfu_causal, r->memory.total().value / 1e9,
            r->network.cost_usd, e.objective, e.fast->step_time.value}) {
        row.emplace_back(v);
      }
    } else {
      row.insert(row.end(), 8, Cell());
    }
    row.emplace_back(e.rejected.empty() ? e.full_error : e.rejected);
    f.rows.push_back(std::move(row));
  }
  return f;
}

Frame campaign_sweep_frame(const metrics::CampaignSweep& s) {
  const bool search = !s.objective.empty();
  Frame f{.columns = {search ? "rank" : "point"}, .rows = {}};
  f.columns.insert(f.columns.end(), s.keys.begin(), s.keys.end());
  const std::vector<CampaignColumn> columns = campaign_columns();
  for (const CampaignColumn& c : columns) {
    f.columns.push_back(c.name);
  }
  f.columns.emplace_back("error");
  for (std::size_t i = 0; i < s.points.size(); ++i) {
    const metrics::CampaignSweepPoint& p = s.points[i];
    std::vector<Cell> row{static_cast<long long>(search ? i + 1 : i)};
    add_text(row, p.values);
    for (const CampaignColumn& c : columns) {
      row.push_back(p.result ? Cell(c.value(*p.result)) : Cell());
    }
    row.emplace_back(p.error);
    f.rows.push_back(std::move(row));
  }
  return f;
}

}  // namespace codesim::report
