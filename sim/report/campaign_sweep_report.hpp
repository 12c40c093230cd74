// Writers for a campaign sweep or search (metrics::CampaignSweep, `codesim campaign --sweep` /
// `--search`): one row per point with the varied keys' values and the run's figures (p50 and
// expectation), in every format; a search's rows in its ranking.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "sim/metrics/campaign_sweep.hpp"
#include "sim/report/html_page.hpp"

namespace codesim::report {

// Keys: schema_version, scenario, mode, objective (a search's), keys, steps_simulated, points
// [{values, campaign (as campaign_json) | error}].
nlohmann::ordered_json campaign_sweep_json(const metrics::CampaignSweep& s);

std::string campaign_sweep_table(const metrics::CampaignSweep& s);
// The frame of report/frame.hpp (campaign_sweep_frame) as CSV: the columns Python's DataFrame has.
std::string campaign_sweep_csv(const metrics::CampaignSweep& s);
std::string campaign_sweep_markdown(const metrics::CampaignSweep& s);
std::string campaign_sweep_html(const metrics::CampaignSweep& s, const PageFooter& footer);

}  // namespace codesim::report
