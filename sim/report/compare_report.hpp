// Writers of a comparison (codesim compare): JSON with schema_version and a table with each
// figure's change against the first scenario.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "sim/metrics/comparison.hpp"
#include "sim/report/frame.hpp"
#include "sim/report/html_page.hpp"

namespace codesim::report {

// Keys: schema_version, scenarios [{name, file, endpoints, switches, links, cost_usd,
// cost_per_endpoint_usd, step_time_s, tokens_per_day, mfu_causal, cost_per_tokens_per_day_usd}].
nlohmann::ordered_json compare_json(const metrics::Comparison& c);

std::string compare_table(const metrics::Comparison& c);

// One row per scenario: name, file, then compare_json's keys (its CSV: frame_csv).
Frame compare_frame(const metrics::Comparison& c);

// The table's figures as a Markdown table (one row per figure, one column per scenario).
std::string compare_markdown(const metrics::Comparison& c);

// A self-contained page: network cost against tokens per day with the Pareto front; cost per
// endpoint, switches and links; step-time bars; each proposal's busiest links; the figures
// table; the scenario files (`footer.scenario_text` holds them all).
std::string compare_html(const metrics::Comparison& c, const PageFooter& footer);

}  // namespace codesim::report
