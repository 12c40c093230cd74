// JSON, terminal and HTML writers of a search (metrics::SearchResult).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "sim/metrics/search_result.hpp"
#include "sim/report/html_page.hpp"

namespace codesim::report {

// Keys: schema_version, scenario, objective, max_network_usd (or null), top, keys, ranking
// [{rank, values {key: value}, base, tier ("full", "fast" or null when rejected), objective,
// fast (the fast tier's run report) or null, full (the full tier's) or null, rejected,
// full_error}], best first.
nlohmann::ordered_json search_json(const metrics::SearchResult& s);

// The best `rows` configurations (and the scenario as written, wherever it ranks): values, tier,
// step time, tokens/day, MFU, memory, network cost; then how many were rejected and why.
std::string search_table(const metrics::SearchResult& s, std::size_t rows);

// The Pareto front of network cost against tokens per day over every kept configuration, the
// best ones' step-time breakdowns, the ranking table and the scenario file.
std::string search_html(const metrics::SearchResult& s, const PageFooter& footer);

}  // namespace codesim::report
