// What a serving run's requests came to (latency percentiles, throughput), and the notes every
// serving report carries.
#pragma once

#include <vector>

#include "sim/config/scenario.hpp"
#include "sim/metrics/serve_result.hpp"
#include "sim/serve/serving_loop.hpp"

namespace codesim::study {

// TTFT, TPOT and latency percentiles, arrival rate, tokens per second (per GPU and node, from
// r.gpus and r.gpus_per_node) and the loop's means, over r.horizon. Returns the output tokens.
double request_figures(const std::vector<serve::Request>& requests, const serve::ServingRun& run,
                       metrics::ServeResult& r);

// How the run's energy was counted, where it was.
void energy_note(metrics::ServeResult& r);

// The method, what is left out, and where the KV cache is counted generously.
void serve_notes(const config::Scenario& base, metrics::ServeResult& r);

}  // namespace codesim::study
