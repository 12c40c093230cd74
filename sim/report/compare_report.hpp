// Writers of a comparison (codesim compare): JSON with schema_version and a table with each
// figure's change against the first scenario.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "sim/metrics/comparison.hpp"

namespace codesim::report {

// Keys: schema_version, scenarios [{name, file, endpoints, switches, links, cost_usd,
// cost_per_endpoint_usd, step_time_s, tokens_per_day, mfu_causal, cost_per_tokens_per_day_usd}].
nlohmann::ordered_json compare_json(const metrics::Comparison& c);

std::string compare_table(const metrics::Comparison& c);

}  // namespace codesim::report
