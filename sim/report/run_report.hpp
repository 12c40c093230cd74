// Writers for a simulated step (metrics::RunResult): JSON with schema_version, and a terminal
// report.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "sim/metrics/run_result.hpp"
#include "sim/report/schema_version.hpp"

namespace codesim::report {

// Keys: schema_version, scenario, step_time_s, breakdown_s {1F, 1B, 1W, 1F1B, bubble, opt},
// tokens_per_step, tokens_per_day, tflops_causal, tflops_noncausal, mfu_causal, mfu_noncausal,
// exposed_comm_s {EP, PP, DP}, compute_busy_s, fb_pair_s, fb_pairs_measured, ib_bytes_per_gpu,
// busiest_links, memory_gb_per_gpu {...}, placement, network {family, endpoints, switches,
// switch_links, cost_usd}, notes.
nlohmann::ordered_json run_json(const metrics::RunResult& r);

std::string run_table(const metrics::RunResult& r);

}  // namespace codesim::report
