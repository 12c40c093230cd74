// A prefill or decode step's throughput and what fits.
#include "sim/metrics/inference_figures.hpp"

#include <algorithm>
#include <cmath>

#include "sim/core/text.hpp"
#include "sim/workload/inference.hpp"

namespace codesim::metrics {

void add_throughput(const InferenceLoad& load, core::Bytes kv_per_request, InferenceResult& r) {
  if (r.phase == InferencePhase::decode) {
    r.tpot_without_mtp = r.step_time;
    r.tpot = workload::effective_tpot(r.step_time, load.mtp, load.mtp_acceptance);
    r.tokens_per_s_per_request = 1.0 / r.tpot.value;
    r.tokens_per_s_per_gpu = load.requests_per_gpu / r.tpot.value;
    // Each request's cache on one GPU of its TP group (sequence-parallel attention).
    r.kv_cache_per_gpu = kv_per_request * static_cast<double>(load.requests_per_gpu);
    if (load.mtp) {
      r.notes.push_back(
          {core::NoteKind::assumed, "MTP: " + core::fixed(1 + load.mtp_acceptance, 2) +
                                        " tokens per request and step (acceptance " +
                                        core::fixed(load.mtp_acceptance, 2) + ")"});
    }
  } else {
    r.ttft = r.step_time;
    r.tokens_per_s_per_gpu = load.prompt_tokens_per_gpu / r.step_time.value;
    r.kv_cache_per_gpu = core::Bytes(kv_per_request.value * load.prompt_tokens_per_gpu /
                                     std::max(1, load.context_len));
  }
  r.tokens_per_s_per_node = r.tokens_per_s_per_gpu * r.gpus_per_node;
}

void add_memory_figures(core::Bytes activations, const std::string& peak_where, double units,
                        InferenceResult& r) {
  r.activations_per_gpu = activations;
  r.activations_peak = peak_where;
  // Per request or prompt token: its KV cache and its share of the activations (both in
  // proportion to the batch).
  const double per_unit = (r.kv_cache_per_gpu.value + activations.value) / std::max(1.0, units);
  const double free = (r.hbm - r.weights_per_gpu - r.framework - r.ep_buffers).value;
  r.largest_batch = free > 0 ? static_cast<long long>(std::floor(free / per_unit)) : 0;
  const core::Bytes need =
      r.weights_per_gpu + r.kv_cache_per_gpu + r.activations_per_gpu + r.framework + r.ep_buffers;
  if (need > r.hbm) {
    const bool decode = r.phase == InferencePhase::decode;
    r.notes.push_back({core::NoteKind::warning,
                       "weights, KV cache, activations and the framework need " +
                           core::fixed(need.value / 1e9, 1) + " GB per GPU, more than its " +
                           core::fixed(r.hbm.value / 1e9, 0) + " GB: at most " +
                           std::to_string(r.largest_batch) +
                           (decode ? " requests" : " prompt tokens") + " per GPU fit"});
  }
}

}  // namespace codesim::metrics
