// JSON, terminal, CSV, Markdown and HTML writers of a campaign.
#include "sim/report/campaign_report.hpp"

#include <algorithm>

#include "sim/report/figure_list.hpp"
#include "sim/report/format.hpp"
#include "sim/report/labels.hpp"
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

// The first run as one bar over its days: training green, restarts grey, degraded periods
// orange, each with a tooltip; the checkpoints (too many to draw) counted in the caption.
std::string run_timeline_svg(const metrics::CampaignResult& r) {
  const double width = 900;
  const double wall = r.first_run_wall.value;
  if (wall <= 0) {
    return "";
  }
  const auto x = [&](double t) { return fixed(t / wall * width, 2); };
  std::string svg =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"920\" height=\"70\">\n"
      "<rect x=\"0\" y=\"10\" width=\"" +
      fixed(width, 0) + "\" height=\"30\" fill=\"#4caf50\"><title>training</title></rect>\n";
  for (const auto& span : r.first_run) {
    const bool restart = span.kind == campaign::RunSpan::restart;
    const double w = std::max(1.0, (span.end_s - span.start_s) / wall * width);
    svg += "<rect x=\"" + x(span.start_s) + "\" y=\"10\" width=\"" + fixed(w, 2) +
           "\" height=\"30\" fill=\"" + (restart ? "#616161" : "#ff9800") + "\"><title>" +
           escape_xml((restart ? "restart after a " : "degraded after a ") + span.cause +
                      " failure, day " + fixed(span.start_s / 86400, 2) + ", " +
                      fixed((span.end_s - span.start_s) / 60, 0) + " min") +
           "</title></rect>\n";
  }
  svg += "<text x=\"0\" y=\"58\" font-size=\"12\">day 0</text><text x=\"" + fixed(width - 60, 0) +
         "\" y=\"58\" font-size=\"12\">day " + fixed(wall / 86400, 1) + "</text>\n</svg>\n";
  return svg;
}

}  // namespace

nlohmann::ordered_json campaign_json(const metrics::CampaignResult& r) {
  nlohmann::ordered_json j;
  j["schema_version"] = kSchemaVersion;
  j["scenario"] = r.scenario;
  j["fidelity"] = metrics::fidelity_name(r.fidelity);
  j["gpus"] = r.gpus;
  j["nodes"] = r.nodes;
  j["step_time_s"] = r.step_time.value;
  if (r.step_spread) {
    j["step_time_p10_s"] = r.step_spread->p10.value;
    j["step_time_p50_s"] = r.step_spread->p50.value;
    j["step_time_p90_s"] = r.step_spread->p90.value;
    j["identical_step_s"] = r.step_spread->identical.value;
  }
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

FigureList campaign_figures(const metrics::CampaignResult& r) {
  FigureList out{
      {"GPUs", std::to_string(r.gpus)},
      {"step (s)",
       fixed(r.step_time.value, 3) + " (" + metrics::fidelity_name(r.fidelity) + " tier" +
           (r.step_spread ? ", mean of " + std::to_string(r.step_spread->steps) + " drawn: p10 " +
                                fixed(r.step_spread->p10.value, 3) + ", p90 " +
                                fixed(r.step_spread->p90.value, 3) + "; identical replicas " +
                                fixed(r.step_spread->identical.value, 3)
                          : std::string()) +
           ")" +
           (r.degraded_step_time.value > 0
                ? "; one plane failed: " + fixed(r.degraded_step_time.value, 3)
                : std::string())},
      {"steps to train", fixed(r.steps, 0)},
      {"checkpoint", fixed(r.checkpoint_bytes.value / 1e12, 2) + " TB, every " +
                         fixed(r.checkpoint_interval.value / 3600, 2) + " h" +
                         (r.checkpoint_interval_auto ? " (Daly)" : "") + ", write " +
                         fixed(r.checkpoint_write.value, 0) + " s, load " +
                         fixed(r.checkpoint_load.value, 0) + " s"},
      {"mean time between stops (h)",
       r.mtbf_hours > 0 ? fixed(r.mtbf_hours, 2) : std::string("none (no failures)")},
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
  return figure_list_table(r.scenario + " (campaign, " + std::to_string(r.trials) + " runs)",
                           campaign_figures(r), r.notes);
}

std::string campaign_csv(const metrics::CampaignResult& r) {
  return figure_list_csv(campaign_figures(r));
}

std::string campaign_markdown(const metrics::CampaignResult& r) {
  return figure_list_markdown(r.scenario + " (campaign)", campaign_figures(r), r.notes);
}

std::string campaign_html(const metrics::CampaignResult& r, const PageFooter& footer) {
  std::string out = open_page("codesim: " + r.scenario + " (campaign)");
  out += "<p>" +
         escape_xml(fixed(r.days.p50, 1) + " days (p50; p10 " + fixed(r.days.p10, 1) + ", p90 " +
                    fixed(r.days.p90, 1) + "), ETTR " + fixed(r.ettr_mean, 3) + ", " +
                    fixed(r.gpu_hours.p50 / 1e6, 3) + "M GPU-hours, $" +
                    fixed(r.cost_usd.p50 / 1e6, 2) + "M") +
         ".</p>\n";
  out += figure_list_html(campaign_figures(r));
  out +=
      "<h2>One run</h2>\n<p>The first Monte-Carlo run: training (green), restarts (grey) and "
      "degraded periods (orange); " +
      std::to_string(r.first_run.size()) + " events, a checkpoint every " +
      fixed(r.checkpoint_interval.value / 60, 0) + " min of training.</p>\n" + run_timeline_svg(r);
  return out + provenance(r.notes) + footer_html(footer);
}

}  // namespace codesim::report
