// What a request-level serving run gives (`codesim serve`). Plain data; sim/study fills it,
// sim/report writes it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/core/note.hpp"
#include "sim/core/units.hpp"
#include "sim/serve/latency_stats.hpp"

namespace codesim::metrics {

// A latency's distribution over the requests, in seconds.
using LatencySummary = serve::Percentiles;

// One kind of instance as it ran.
struct ServeInstances {
  int instances = 0;
  int gpus_each = 0;
  int tp = 0;
  int ep = 0;
  int pp = 1;
  double busy = 0;  // share of the instances' time spent in steps
  long long steps = 0;
  core::Seconds reference_step;  // one step at the instance's full load (chunk or batch)
  // That step's tokens per second per node: prompt tokens (prefill) or output tokens (decode).
  double full_load_tokens_per_s_per_node = 0;
};

// The run's energy, from the first arrival to the last token, every instance's GPUs and what
// serves them: the GPUs through their steps at the governed clock (busy, and awake while a step
// waits), at rest between steps; their NICs, switches and hosts at their stated power.
struct ServeEnergy {
  double gpu_steps_j = 0;  // the GPUs through their steps
  double gpu_idle_j = 0;   // at rest between steps
  double network_j = 0;    // NICs and switches
  double host_j = 0;       // nodes besides GPUs and NICs
  double gpu_idle_w = 0;   // a GPU at rest (the preset's)
  double per_output_token_j = 0;
  double mean_gpu_power_w = 0;  // over the GPUs and the horizon
  double total_j() const { return gpu_steps_j + gpu_idle_j + network_j + host_j; }
};

enum class SloVerdict { none, met, unmet };
std::string_view slo_verdict_name(SloVerdict v);  // "none", "met", "unmet"

struct ServeResult {
  std::string scenario;
  std::string arrivals;  // "Poisson, 4 requests/s" or "trace file.csv"
  int requests = 0;
  int gpus = 0;  // prefill and decode instances together
  int gpus_per_node = 0;
  ServeInstances prefill;
  ServeInstances decode;
  double decode_kv_tokens = 0;  // KV-cache tokens one decode instance holds
  core::Seconds horizon;        // the first arrival to the last request's last token
  LatencySummary ttft;
  LatencySummary tpot;
  LatencySummary latency;   // arrival to last token
  double arrival_rate = 0;  // requests per second over the horizon
  double mean_in_flight = 0;
  double output_tokens_per_s = 0;
  double output_tokens_per_s_per_gpu = 0;
  double output_tokens_per_s_per_node = 0;
  double prompt_tokens_per_s = 0;
  double mean_decode_batch = 0;  // requests per decode step
  long long waited_for_kv = 0;   // requests that waited for decode KV-cache room or a slot
  int peak_decode_waiting = 0;
  // SLOs: the share of requests meeting both targets, those per second, and the verdict.
  core::Seconds slo_ttft;
  core::Seconds slo_tpot;
  double slo_attainment_target = 0;
  double slo_attainment = 0;
  double goodput = 0;  // requests per second meeting both targets
  SloVerdict slo = SloVerdict::none;
  std::optional<ServeEnergy> energy;  // none without a power model
  std::vector<core::Note> notes;
};

}  // namespace codesim::metrics
