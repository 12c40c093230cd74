// A serving run's figures from plain values (sim/study prices the steps and runs the loop): its
// requests' latencies and throughput, its SLO attainment, its energy, and the notes every serving
// report carries.
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "models/hardware/hardware_spec.hpp"
#include "models/llm/llm_spec.hpp"
#include "sim/core/units.hpp"
#include "sim/metrics/serve_result.hpp"
#include "sim/serve/serve_spec.hpp"
#include "sim/serve/serving_loop.hpp"

namespace codesim::metrics {

// TTFT, TPOT and latency percentiles, arrival rate, tokens per second (per GPU and node, from
// r.gpus and r.gpus_per_node) and the loop's means, over r.horizon (r.requests, r.gpus,
// r.gpus_per_node and r.horizon set). Returns the output tokens.
double add_request_figures(const std::vector<serve::Request>& requests,
                           const serve::ServingRun& run, ServeResult& r);

// What one request takes with nothing else running: its prefill (every chunk) to its first
// token, and a decode step of that one request.
struct ServeAlone {
  core::Seconds ttft;
  core::Seconds tpot;
};

// The share of requests meeting both targets, goodput (those per second over r.horizon) and the
// verdict; a target that `alone` already misses is said in a note (no load can meet it). Nothing
// without a target.
void add_slo_figures(const serve::Slo& slo, const serve::ServingRun& run, const ServeAlone& alone,
                     ServeResult& r);

// One kind of instance as the run used it, its GPUs' steps priced by the inference model.
struct InstanceDraw {
  int instances = 0;
  int gpus_each = 0;
  double busy = 0;         // share of the instances' time in steps
  double step_joules = 0;  // every step the loop ran, every GPU of its instance
  double network_j = 0;    // one instance's NICs and switches over the horizon
  double host_j = 0;       // one instance's hosts over the horizon
};

// The run's energy (r.energy) and the note saying how it was counted: the steps' GPU energy,
// the GPUs at `power.idle_w` when not in a step, each instance's network and hosts, over
// r.horizon. None when the GPUs have no power model (limit 0) or the horizon is empty.
void add_serve_energy(const hardware::PowerSpec& power,
                      const std::array<InstanceDraw, 2>& instances, double output_tokens,
                      ServeResult& r);

// The method, what is left out, and where the KV cache is counted generously (a model with
// windowed layers).
void add_serve_notes(const llm::LlmSpec& model, ServeResult& r);

}  // namespace codesim::metrics
