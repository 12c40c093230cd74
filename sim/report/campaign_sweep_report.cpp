// One row per point: the varied keys, then the run's figures.
#include "sim/report/campaign_sweep_report.hpp"

#include "sim/report/campaign_report.hpp"
#include "sim/report/format.hpp"
#include "sim/report/frame.hpp"
#include "sim/report/markdown.hpp"
#include "sim/report/schema_version.hpp"
#include "sim/report/svg_chart.hpp"
#include "sim/report/table.hpp"

namespace codesim::report {
namespace {

const std::vector<std::string> kFigures{
    "step (s)",          "checkpoint every (h)", "days p50",      "days expected",    "ETTR",
    "GPU-hours p50 (M)", "interruptions p50",    "cost p50 (M$)", "energy p50 (MWh)", "error"};

std::vector<std::string> header(const metrics::CampaignSweep& s) {
  std::vector<std::string> h = s.keys;
  h.insert(h.end(), kFigures.begin(), kFigures.end());
  return h;
}

std::vector<std::string> row(const metrics::CampaignSweepPoint& p) {
  std::vector<std::string> r = p.values;
  if (!p.result) {
    r.insert(r.end(), kFigures.size() - 1, "");
    r.push_back(p.error);
    return r;
  }
  const metrics::CampaignResult& c = *p.result;
  for (const std::string& cell :
       {fixed(c.step_time.value, 3), fixed(c.checkpoint_interval.value / 3600, 2),
        fixed(c.days.p50, 2), fixed(c.days.expected, 2), fixed(c.ettr_mean, 4),
        fixed(c.gpu_hours.p50 / 1e6, 3), fixed(c.interruptions.p50, 0),
        fixed(c.cost_usd.p50 / 1e6, 3), fixed(c.energy_mwh.p50, 0), std::string()}) {
    r.push_back(cell);
  }
  return r;
}

std::string title(const metrics::CampaignSweep& s) {
  const std::string what = s.objective.empty()
                               ? "campaign sweep, " + std::string(core::sweep_mode_name(s.mode)) +
                                     ", " + std::to_string(s.points.size()) + " points"
                               : "campaign search by " + s.objective + " (p50, least first), " +
                                     std::to_string(s.points.size()) + " candidates";
  return s.scenario + " (" + what + ", " + std::to_string(s.steps_simulated) + " steps simulated)";
}

}  // namespace

nlohmann::ordered_json campaign_sweep_json(const metrics::CampaignSweep& s) {
  nlohmann::ordered_json j;
  j["schema_version"] = kSchemaVersion;
  j["scenario"] = s.scenario;
  j["mode"] = core::sweep_mode_name(s.mode);
  if (!s.objective.empty()) {
    j["objective"] = s.objective;
  }
  j["keys"] = s.keys;
  j["steps_simulated"] = s.steps_simulated;
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  for (const auto& p : s.points) {
    nlohmann::ordered_json point{{"values", p.values}};
    if (p.result) {
      point["campaign"] = campaign_json(*p.result);
    } else {
      point["error"] = p.error;
    }
    points.push_back(std::move(point));
  }
  j["points"] = std::move(points);
  return j;
}

std::string campaign_sweep_table(const metrics::CampaignSweep& s) {
  std::vector<Table::Align> align(s.keys.size(), Table::Align::left);
  align.insert(align.end(), kFigures.size() - 1, Table::Align::right);
  align.push_back(Table::Align::left);
  Table t(header(s), align);
  for (const auto& p : s.points) {
    t.add_row(row(p));
  }
  return title(s) + "\n" + t.render();
}

std::string campaign_sweep_csv(const metrics::CampaignSweep& s) {
  return frame_csv(campaign_sweep_frame(s));
}

std::string campaign_sweep_markdown(const metrics::CampaignSweep& s) {
  std::string out =
      "## " + title(s) + "\n\n" + md_row(header(s)) + md_rule(header(s).size(), s.keys.size());
  for (const auto& p : s.points) {
    out += md_row(row(p));
  }
  return out;
}

std::string campaign_sweep_html(const metrics::CampaignSweep& s, const PageFooter& footer) {
  std::string out = open_page("codesim: " + title(s));
  Chart days{.title = "days to train (p50) per " +
                      std::string(s.objective.empty() ? "point" : "candidate, best first"),
             .y_label = "days",
             .x_label = ""};
  Series p50{.name = "days p50", .values = {}};
  for (std::size_t k = 0; k < s.keys.size(); ++k) {
    days.x_label += (k == 0 ? "" : ", ") + s.keys[k];
  }
  for (const auto& p : s.points) {
    if (p.result) {
      std::string label;
      for (std::size_t k = 0; k < p.values.size(); ++k) {
        label += (k == 0 ? "" : ", ") + p.values[k];
      }
      days.categories.push_back(label);
      p50.values.push_back(p.result->days.p50);
    }
  }
  days.series.push_back(std::move(p50));
  if (!days.categories.empty()) {
    out += "<h2>Days to train</h2>\n" + lines_svg(days) + "\n";
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto& p : s.points) {
    rows.push_back(row(p));
  }
  out += "<h2>Points</h2>\n" + html_table(header(s), rows);
  return out + footer_html(footer);
}

}  // namespace codesim::report
