// A serving run's figures from its requests, and its report's notes.
#include "sim/study/serve_figures.hpp"

#include "sim/core/text.hpp"
#include "sim/serve/latency_stats.hpp"

namespace codesim::study {
namespace {

// Whether counting a token in every layer overstates a request's cache: some layer keeps a
// window only.
bool kv_tokens_overestimated(const llm::LlmSpec& m) {
  for (int l = 0; l < m.layers; ++l) {
    if (m.layer(l).span != llm::AttentionSpan::full) {
      return true;
    }
  }
  return false;
}

}  // namespace

double request_figures(const std::vector<serve::Request>& requests, const serve::ServingRun& run,
                       metrics::ServeResult& r) {
  std::vector<double> ttft;
  std::vector<double> tpot;
  std::vector<double> latency;
  double output = 0;
  double prompt = 0;
  for (std::size_t k = 0; k < run.requests.size(); ++k) {
    const auto& q = run.requests[k];
    ttft.push_back((q.first_token - q.arrival).value);
    latency.push_back((q.finish - q.arrival).value);
    if (q.output_tokens > 1) {
      tpot.push_back(q.tpot().value);
    }
    output += q.output_tokens;
    prompt += requests[k].prompt_tokens;
  }
  r.ttft = serve::percentiles(ttft);
  r.tpot = serve::percentiles(tpot);
  r.latency = serve::percentiles(latency);
  r.arrival_rate = r.requests / r.horizon.value;
  r.mean_in_flight = run.mean_in_flight;
  r.output_tokens_per_s = output / r.horizon.value;
  r.output_tokens_per_s_per_gpu = r.output_tokens_per_s / r.gpus;
  r.output_tokens_per_s_per_node = r.output_tokens_per_s_per_gpu * r.gpus_per_node;
  r.prompt_tokens_per_s = prompt / r.horizon.value;
  r.mean_decode_batch = run.mean_decode_batch;
  return output;
}

void energy_note(metrics::ServeResult& r) {
  if (r.energy) {
    r.notes.push_back(
        {core::NoteKind::method,
         "energy: every instance's GPUs through each step the loop ran as the inference model "
         "prices it (busy at the governed clock, awake while the step waits), at rest between "
         "steps at " +
             core::fixed(r.energy->gpu_idle_w, 0) +
             " W; each instance's NICs, switches and hosts at their stated power over the "
             "horizon (docs/model/power.md)"});
  }
}

void serve_notes(const config::Scenario& base, metrics::ServeResult& r) {
  r.notes.push_back(
      {core::NoteKind::method,
       "request-level discrete-event loop: chunked prefill first come first served, the KV "
       "cache sent over the prefill TP group's NICs, continuous-batching decode admitting a "
       "request when its prompt and output fit the instance's KV cache (no eviction)"});
  r.notes.push_back(
      {core::NoteKind::method,
       "each step priced by the inference model at its load (routing uniform); dispatch and "
       "combine in proportion to the step's tokens from one simulated EP round per instance "
       "kind at its full load"});
  r.notes.push_back({core::NoteKind::omitted,
                     "MTP in serving, a chunk's attention to the prompt's earlier chunks, "
                     "preemption, and the host's scheduling time between steps"});
  if (kv_tokens_overestimated(base.model.spec)) {
    r.notes.push_back({core::NoteKind::estimated,
                       "KV cache sized as a token in every layer: the model's sliding and "
                       "chunked layers keep only their windows, so a long request needs less "
                       "than counted (the instance holds more requests than simulated)"});
  }
}

}  // namespace codesim::study
