// JSON, terminal, CSV, Markdown and HTML writers of a campaign.
#include "sim/report/campaign_report.hpp"

#include "sim/report/csv.hpp"
#include "sim/report/format.hpp"
#include "sim/report/labels.hpp"
#include "sim/report/markdown.hpp"
#include "sim/report/schema_version.hpp"
#include "sim/report/svg_chart.hpp"

namespace codesim::report {
namespace {

nlohmann::ordered_json quantiles_json(const metrics::RunQuantiles& q) {
  return {
      {"p10", q.p10}, {"p50", q.p50}, {"p90", q.p90}, {"mean", q.mean}, {"expected", q.expected}};
}

std::string quantiles_text(const metrics::RunQuantiles& q, int digits) {
  return fixed(q.p10, digits) + " / " + fixed(q.p50, digits) + " / " + fixed(q.p90, digits) +
         " (expected " + fixed(q.expected, digits) + ")";
}

}  // namespace

nlohmann::ordered_json campaign_json(const metrics::CampaignResult& r) {
  nlohmann::ordered_json j;
  j["schema_version"] = kSchemaVersion;
  j["scenario"] = r.scenario;
  j["fidelity"] = r.fidelity;
  j["gpus"] = r.gpus;
  j["nodes"] = r.nodes;
  j["step_time_s"] = r.step_time.value;
  j["degraded_step_time_s"] = r.degraded_step_time.value;
  j["tokens"] = r.tokens;
  j["tokens_per_step"] = r.tokens_per_step;
  j["steps"] = r.steps;
  j["checkpoint"] = {{"bytes", r.checkpoint_bytes.value},
                     {"interval_s", r.checkpoint_interval.value},
                     {"interval_auto", r.checkpoint_interval_auto},
                     {"write_s", r.checkpoint_write.value},
                     {"load_s", r.checkpoint_load.value}};
  j["mean_restart_s"] = r.mean_restart.value;
  j["mtbf_hours"] = r.mtbf_hours;
  j["trials"] = r.trials;
  j["days"] = quantiles_json(r.days);
  j["gpu_hours"] = quantiles_json(r.gpu_hours);
  j["interruptions"] = quantiles_json(r.interruptions);
  j["degradations"] = quantiles_json(r.degradations);
  j["cost_usd"] = quantiles_json(r.cost_usd);
  j["energy_mwh"] = quantiles_json(r.energy_mwh);
  j["ettr"] = {{"mean", r.ettr_mean}, {"expected", r.ettr_expected}};
  j["checkpoints"] = r.checkpoints;
  auto causes = nlohmann::ordered_json::array();
  for (const auto& c : r.causes) {
    causes.push_back({{"cause", c.cause},
                      {"per_gpu_hour", c.per_gpu_hour},
                      {"degrades", c.degrades},
                      {"expected", c.expected}});
  }
  j["causes"] = causes;
  j["notes"] = notes_json(r.notes);
  return j;
}

std::vector<std::pair<std::string, std::string>> campaign_figures(
    const metrics::CampaignResult& r) {
  std::vector<std::pair<std::string, std::string>> out{
      {"GPUs", std::to_string(r.gpus)},
      {"step (s)", fixed(r.step_time.value, 3) + " (" + r.fidelity + " tier)" +
                       (r.degraded_step_time.value > 0
                            ? "; one plane failed: " + fixed(r.degraded_step_time.value, 3)
                            : std::string())},
      {"steps to train", fixed(r.steps, 0)},
      {"checkpoint", fixed(r.checkpoint_bytes.value / 1e12, 2) + " TB, every " +
                         fixed(r.checkpoint_interval.value / 3600, 2) + " h" +
                         (r.checkpoint_interval_auto ? " (Daly)" : "") + ", write " +
                         fixed(r.checkpoint_write.value, 0) + " s, load " +
                         fixed(r.checkpoint_load.value, 0) + " s"},
      {"mean time between stops (h)", fixed(r.mtbf_hours, 2)},
      {"mean restart (min)", fixed(r.mean_restart.value / 60, 1)},
      {"days p10 / p50 / p90", quantiles_text(r.days, 2)},
      {"GPU-hours p10 / p50 / p90", quantiles_text(r.gpu_hours, 0)},
      {"interruptions p10 / p50 / p90", quantiles_text(r.interruptions, 1)},
      {"degraded periods p10 / p50 / p90", quantiles_text(r.degradations, 1)},
      {"ETTR", fixed(r.ettr_mean, 4) + " (expected " + fixed(r.ettr_expected, 4) + ")"},
      {"cost (USD) p10 / p50 / p90", quantiles_text(r.cost_usd, 0)},
      {"energy (MWh) p10 / p50 / p90", quantiles_text(r.energy_mwh, 1)}};
  for (const auto& c : r.causes) {
    out.push_back({"expected " + c.cause + (c.degrades ? " faults (degrade)" : " interruptions"),
                   fixed(c.expected, 1)});
  }
  return out;
}

std::string campaign_table(const metrics::CampaignResult& r) {
  std::string out = r.scenario + " (campaign, " + std::to_string(r.trials) + " runs)\n";
  for (const auto& [label, value] : campaign_figures(r)) {
    out += label + ": " + value + "\n";
  }
  for (const auto& n : r.notes) {
    out += "note: " + note_line(n) + "\n";
  }
  return out;
}

std::string campaign_csv(const metrics::CampaignResult& r) {
  std::string out = csv_row({"figure", "value"});
  for (const auto& [label, value] : campaign_figures(r)) {
    out += csv_row({label, value});
  }
  return out;
}

std::string campaign_markdown(const metrics::CampaignResult& r) {
  std::string out =
      "# " + r.scenario + " (campaign)\n\n" + md_row({"figure", "value"}) + md_rule(2, 1);
  for (const auto& [label, value] : campaign_figures(r)) {
    out += md_row({label, value});
  }
  out += "\n";
  for (const auto& n : r.notes) {
    out += "- " + note_line(n) + "\n";
  }
  return out;
}

std::string campaign_html(const metrics::CampaignResult& r, const PageFooter& footer) {
  std::string out = open_page("codesim: " + r.scenario + " (campaign)");
  out += "<p>" +
         escape_xml(fixed(r.days.p50, 1) + " days (p50; p10 " + fixed(r.days.p10, 1) + ", p90 " +
                    fixed(r.days.p90, 1) + "), ETTR " + fixed(r.ettr_mean, 3) + ", " +
                    fixed(r.gpu_hours.p50 / 1e6, 3) + "M GPU-hours, $" +
                    fixed(r.cost_usd.p50 / 1e6, 2) + "M") +
         ".</p>\n";
  std::vector<std::vector<std::string>> rows;
  for (const auto& [label, value] : campaign_figures(r)) {
    rows.push_back({label, value});
  }
  out += "<h2>Figures</h2>\n" + html_table({"figure", "value"}, rows);
  return out + provenance(r.notes) + footer_html(footer);
}

}  // namespace codesim::report
