// Writers for a simulated prefill or decode step (metrics::InferenceResult): JSON with
// schema_version, and a terminal report.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "sim/metrics/inference_result.hpp"

namespace codesim::report {

// Keys: schema_version, scenario, phase, mode, gpus, ep, tp, pp, micro_batches,
// tokens_per_micro_batch, context_len, step_time_ms, tpot_ms, tpot_without_mtp_ms, ttft_ms,
// tokens_per_s_per_gpu, tokens_per_s_per_node, tokens_per_s_per_request, per_layer_us {attention,
// dense_mlp, moe, dispatch, combine}, compute_busy, comm_busy, bound_by, memory_gb_per_gpu
// {weights, kv_cache, capacity}, energy (energy_report.hpp; absent without a power model or in
// bound mode), notes.
nlohmann::ordered_json inference_json(const metrics::InferenceResult& r);

std::string inference_table(const metrics::InferenceResult& r);

}  // namespace codesim::report
