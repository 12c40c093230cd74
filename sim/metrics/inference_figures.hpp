// A prefill or decode step's figures from plain values (sim/study prices the step): its
// throughput and latencies, and what fits in HBM.
#pragma once

#include <string>

#include "sim/core/units.hpp"
#include "sim/metrics/inference_result.hpp"

namespace codesim::metrics {

// What each GPU computes per step, as the scenario's inference: section gives it.
struct InferenceLoad {
  int requests_per_gpu = 0;       // decode: requests, one token each per step
  int prompt_tokens_per_gpu = 0;  // prefill: prompt tokens
  int context_len = 1;            // tokens in each request's KV cache
  bool mtp = false;               // decode: a drafted token per request and step
  double mtp_acceptance = 0;      // of that draft
};

// From r.step_time, r.phase and r.gpus_per_node. Decode: TPOT (with MTP, the step over 1 +
// acceptance tokens), tokens per second per request, GPU and node, and every request's KV cache
// (`kv_per_request` bytes each, on one GPU of its TP group); prefill: TTFT (the step), prompt
// tokens per second, their KV cache (a request's per token of its context).
void add_throughput(const InferenceLoad& load, core::Bytes kv_per_request, InferenceResult& r);

// From r.hbm, r.weights_per_gpu, r.kv_cache_per_gpu, r.framework and r.ep_buffers: the step's
// activations at their peak (`activations`, at `peak_where`), the largest batch that fits (each
// of the step's `units`, requests or prompt tokens, with its share of the KV cache and the
// activations), and a warning where the step does not fit.
void add_memory_figures(core::Bytes activations, const std::string& peak_where, double units,
                        InferenceResult& r);

}  // namespace codesim::metrics
