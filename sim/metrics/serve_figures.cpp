// A serving run's figures from its requests, its SLO, its instances' draw, and its notes.
#include "sim/metrics/serve_figures.hpp"

#include "sim/core/text.hpp"
#include "sim/serve/latency_stats.hpp"

namespace codesim::metrics {
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

void slo_unmet_notes(const ServeAlone& alone, ServeResult& r) {
  if (r.slo_ttft.value > 0 && alone.ttft > r.slo_ttft) {
    r.notes.push_back(
        {core::NoteKind::warning,
         "SLO unmet at any load: a request alone takes " + core::fixed(alone.ttft.value * 1e3, 1) +
             " ms to its first token (target " + core::fixed(r.slo_ttft.value * 1e3, 1) + " ms)"});
  }
  if (r.slo_tpot.value > 0 && alone.tpot > r.slo_tpot) {
    r.notes.push_back(
        {core::NoteKind::warning, "SLO unmet at any load: a decode step of one request takes " +
                                      core::fixed(alone.tpot.value * 1e3, 2) + " ms (TPOT target " +
                                      core::fixed(r.slo_tpot.value * 1e3, 2) + " ms)"});
  }
}

}  // namespace

double add_request_figures(const std::vector<serve::Request>& requests,
                           const serve::ServingRun& run, ServeResult& r) {
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
  r.waited_for_kv = run.waited_for_kv;
  r.peak_decode_waiting = run.peak_decode_waiting;
  return output;
}

void add_slo_figures(const serve::Slo& slo, const serve::ServingRun& run, const ServeAlone& alone,
                     ServeResult& r) {
  r.slo_ttft = slo.ttft;
  r.slo_tpot = slo.tpot;
  r.slo_attainment_target = slo.attainment;
  if (r.slo_ttft.value <= 0 && r.slo_tpot.value <= 0) {
    return;
  }
  int met = 0;
  for (const auto& q : run.requests) {
    const bool ttft_ok = r.slo_ttft.value <= 0 || (q.first_token - q.arrival) <= r.slo_ttft;
    const bool tpot_ok = r.slo_tpot.value <= 0 || q.tpot() <= r.slo_tpot;
    met += ttft_ok && tpot_ok;
  }
  r.slo_attainment = static_cast<double>(met) / r.requests;
  r.goodput = met / r.horizon.value;
  r.slo = r.slo_attainment >= r.slo_attainment_target ? SloVerdict::met : SloVerdict::unmet;
  slo_unmet_notes(alone, r);
}

void add_serve_energy(const hardware::PowerSpec& power,
                      const std::array<InstanceDraw, 2>& instances, double output_tokens,
                      ServeResult& r) {
  const double horizon = r.horizon.value;
  if (power.limit_w <= 0 || horizon <= 0) {
    return;
  }
  ServeEnergy e{.gpu_idle_w = power.idle_w};
  double gpus = 0;
  for (const InstanceDraw& use : instances) {
    const double n = use.instances;
    gpus += n * use.gpus_each;
    e.gpu_steps_j += use.step_joules;
    e.gpu_idle_j += n * use.gpus_each * (1 - use.busy) * horizon * power.idle_w;
    e.network_j += n * use.network_j;
    e.host_j += n * use.host_j;
  }
  e.per_output_token_j = output_tokens > 0 ? e.total_j() / output_tokens : 0;
  e.mean_gpu_power_w = (e.gpu_steps_j + e.gpu_idle_j) / (gpus * horizon);
  r.energy = e;
  r.notes.push_back(
      {core::NoteKind::method,
       "energy: every instance's GPUs through each step the loop ran as the inference model "
       "prices it (busy at the governed clock, awake while the step waits), at rest between "
       "steps at " +
           core::fixed(e.gpu_idle_w, 0) +
           " W; each instance's NICs, switches and hosts at their stated power over the "
           "horizon (docs/model/power.md)"});
}

void add_serve_notes(const llm::LlmSpec& model, ServeResult& r) {
  r.notes.push_back(
      {core::NoteKind::method,
       "request-level discrete-event loop: chunked prefill first come first served, the KV "
       "cache sent through the deployment's network (the topology over every instance's nodes) "
       "by the prefill TP group's GPUs, continuous-batching decode admitting a request when its "
       "prompt and output fit the instance's KV cache (no eviction)"});
  r.notes.push_back(
      {core::NoteKind::method,
       "each step priced by the inference model at its load (routing uniform); dispatch and "
       "combine in proportion to the step's tokens from one simulated EP round per instance "
       "kind at its full load"});
  r.notes.push_back({core::NoteKind::omitted,
                     "MTP in serving, a chunk's attention to the prompt's earlier chunks, "
                     "preemption, and the host's scheduling time between steps"});
  if (kv_tokens_overestimated(model)) {
    r.notes.push_back({core::NoteKind::estimated,
                       "KV cache sized as a token in every layer: the model's sliding and "
                       "chunked layers keep only their windows, so a long request needs less "
                       "than counted (the instance holds more requests than simulated)"});
  }
}

}  // namespace codesim::metrics
