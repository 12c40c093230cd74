// `codesim run` for workload.kind prefill or decode: one inference step of the scenario.
#pragma once

#include <ostream>

#include "sim/cli/commands.hpp"
#include "sim/config/scenario.hpp"
#include "sim/metrics/inference_result.hpp"

namespace codesim::cli {

// The step as the scenario describes it: bound mode (ISCA 2.3.2, decode only) or the full model
// (routing from the reference gate with EPLB replicas, dispatch and combine simulated on SimGrid,
// pieces from the cost model or the calibrated piece model, micro-batches overlapped).
// Refuses (before building it) a platform over `max_memory_mb`.
metrics::InferenceResult simulate_inference(const config::Scenario& s, double max_memory_mb);

// Simulates and writes the report in o.format (table or json; csv, md, html: not yet for
// inference), and to o.report.
void run_inference(const config::Scenario& s, const RunOptions& o, std::ostream& out);

}  // namespace codesim::cli
