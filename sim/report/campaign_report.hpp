// Writers for a training run's campaign (metrics::CampaignResult): JSON with schema_version, a
// terminal report, CSV, Markdown and an HTML page, the text formats from one list of figures.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "sim/metrics/campaign_result.hpp"
#include "sim/report/figure_list.hpp"
#include "sim/report/html_page.hpp"

namespace codesim::report {

// Keys: schema_version, scenario, fidelity, gpus, nodes, step_time_s, degraded_step_time_s,
// tokens, tokens_per_step, steps, checkpoint {bytes, interval_s, interval_auto, write_s, load_s},
// mean_restart_s, mtbf_hours, trials, days, gpu_hours, interruptions, degradations, cost_usd,
// energy_mwh (each {p10, p50, p90, mean, expected}), ettr {mean, expected}, checkpoints,
// causes [{cause, per_gpu_hour, degrades, expected}], notes.
nlohmann::ordered_json campaign_json(const metrics::CampaignResult& r);

FigureList campaign_figures(const metrics::CampaignResult& r);

std::string campaign_table(const metrics::CampaignResult& r);
std::string campaign_csv(const metrics::CampaignResult& r);
std::string campaign_markdown(const metrics::CampaignResult& r);
std::string campaign_html(const metrics::CampaignResult& r, const PageFooter& footer);

}  // namespace codesim::report
