// The step columns, in report order.
#include "sim/report/columns.hpp"

#include <stdexcept>

namespace codesim::report {
namespace {

using metrics::RunResult;

double exposed(const RunResult& r, const std::string& kind) {
  const auto it = r.exposed_comm.find(kind);
  return it == r.exposed_comm.end() ? 0.0 : it->second.value;
}

std::vector<Column> build() {
  return {
      {"step_time_s", "step time (s)", [](const RunResult& r) { return r.step_time.value; }},
      {"tokens_per_day", "tokens per day", [](const RunResult& r) { return r.tokens_per_day; }},
      {"tflops_causal", "TFLOPS per GPU, causal",
       [](const RunResult& r) { return r.tflops_causal; }},
      {"mfu_causal", "MFU, causal", [](const RunResult& r) { return r.mfu_causal; }},
      {"mfu_noncausal", "MFU, non-causal", [](const RunResult& r) { return r.mfu_noncausal; }},
      {"forward_s", "1F (s)", [](const RunResult& r) { return r.breakdown.forward.value; }},
      {"backward_s", "1B (s)", [](const RunResult& r) { return r.breakdown.backward.value; }},
      {"weight_s", "1W (s)", [](const RunResult& r) { return r.breakdown.weight.value; }},
      {"forward_backward_s", "1F1B (s)",
       [](const RunResult& r) { return r.breakdown.forward_backward.value; }},
      {"bubble_s", "bubble (s)", [](const RunResult& r) { return r.breakdown.bubble.value; }},
      {"optimizer_s", "opt (s)", [](const RunResult& r) { return r.breakdown.optimizer.value; }},
      {"exposed_ep_s", "exposed EP comm (s)", [](const RunResult& r) { return exposed(r, "EP"); }},
      {"exposed_pp_s", "exposed PP comm (s)", [](const RunResult& r) { return exposed(r, "PP"); }},
      {"exposed_dp_s", "exposed DP comm (s)", [](const RunResult& r) { return exposed(r, "DP"); }},
      {"fb_pair_s", "F&B pair (s)", [](const RunResult& r) { return r.median_pair.value; }},
      {"ib_bytes_per_gpu", "IB bytes per GPU",
       [](const RunResult& r) { return r.ib_bytes_per_gpu.value; }},
      {"memory_gb_per_gpu", "memory per GPU (GB)",
       [](const RunResult& r) { return r.memory.total_gb(); }},
      {"switches", "switches",
       [](const RunResult& r) { return static_cast<double>(r.network.switches); }},
      {"network_cost_usd", "network cost ($)",
       [](const RunResult& r) { return r.network.cost_usd; }},
      {"cost_per_tokens_per_day_usd", "network cost per (token/day) ($)",
       [](const RunResult& r) {
         return r.tokens_per_day > 0 ? r.network.cost_usd / r.tokens_per_day : 0.0;
       }},
  };
}

}  // namespace

const std::vector<Column>& step_columns() {
  static const std::vector<Column> columns = build();
  return columns;
}

const Column& step_column(const std::string& name) {
  for (const auto& c : step_columns()) {
    if (c.name == name) {
      return c;
    }
  }
  throw std::out_of_range("no step column '" + name + "'");
}

}  // namespace codesim::report
