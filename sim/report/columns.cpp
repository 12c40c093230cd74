// The step columns, in report order.
#include "sim/report/columns.hpp"

#include <stdexcept>

#include "sim/report/labels.hpp"

namespace codesim::report {
namespace {

using metrics::RunResult;

std::vector<Column> build() {
  std::vector<Column> columns{
      {"step_time_s", "step time (s)", [](const RunResult& r) { return r.step_time.value; }},
      {"tokens_per_day", "tokens per day", [](const RunResult& r) { return r.tokens_per_day; }},
      {"tflops_causal", "TFLOPS per GPU, causal",
       [](const RunResult& r) { return r.tflops_causal; }},
      {"mfu_causal", "MFU, causal", [](const RunResult& r) { return r.mfu_causal; }},
      {"mfu_noncausal", "MFU, non-causal", [](const RunResult& r) { return r.mfu_noncausal; }},
  };
  for (const auto& part : kBreakdownParts) {
    columns.push_back(
        {std::string(part.column), std::string(part.label) + " (s)",
         [member = part.member](const RunResult& r) { return (r.breakdown.*member).value; }});
  }
  for (const auto g : metrics::kCommGroups) {
    const std::string name(metrics::comm_group_name(g));
    std::string lower = name;
    for (char& c : lower) {
      c = static_cast<char>(c - 'A' + 'a');
    }
    columns.push_back({"exposed_" + lower + "_s", "exposed " + name + " comm (s)",
                       [g](const RunResult& r) { return exposed(r, g).value; }});
  }
  const std::vector<Column> rest{
      {"fb_pair_s", "F&B pair (s)", [](const RunResult& r) { return r.median_pair.value; }},
      {"ib_bytes_per_gpu", "IB bytes per GPU",
       [](const RunResult& r) { return r.ib_bytes_per_gpu.value; }},
      {"memory_gb_per_gpu", "memory per GPU (GB)",
       [](const RunResult& r) { return r.memory.total().value / 1e9; }},
      {"switches", "switches",
       [](const RunResult& r) { return static_cast<double>(r.network.switches); }},
      {"network_cost_usd", "network cost ($)",
       [](const RunResult& r) { return r.network.cost_usd; }},
      {"cost_per_tokens_per_day_usd", "network cost per (token/day) ($)",
       [](const RunResult& r) {
         return r.tokens_per_day > 0 ? r.network.cost_usd / r.tokens_per_day : 0.0;
       }},
  };
  columns.insert(columns.end(), rest.begin(), rest.end());
  return columns;
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

const std::vector<InferenceColumn>& inference_columns() {
  using R = metrics::InferenceResult;
  static const std::vector<InferenceColumn> columns{
      {"step_time_ms", "step (ms)", [](const R& r) { return r.step_time.value * 1e3; }},
      {"tpot_ms", "TPOT (ms)", [](const R& r) { return r.tpot.value * 1e3; }},
      {"tpot_without_mtp_ms", "TPOT without MTP (ms)",
       [](const R& r) { return r.tpot_without_mtp.value * 1e3; }},
      {"ttft_ms", "TTFT (ms)", [](const R& r) { return r.ttft.value * 1e3; }},
      {"tokens_per_s_per_gpu", "tokens/s per GPU",
       [](const R& r) { return r.tokens_per_s_per_gpu; }},
      {"tokens_per_s_per_node", "tokens/s per node",
       [](const R& r) { return r.tokens_per_s_per_node; }},
      {"tokens_per_s_per_request", "tokens/s per request",
       [](const R& r) { return r.tokens_per_s_per_request; }},
      {"attention_us", "attention (us)", [](const R& r) { return r.attention.value * 1e6; }},
      {"dense_mlp_us", "dense FFN (us)", [](const R& r) { return r.dense_mlp.value * 1e6; }},
      {"moe_us", "experts (us)", [](const R& r) { return r.moe.value * 1e6; }},
      {"dispatch_us", "dispatch (us)", [](const R& r) { return r.dispatch.value * 1e6; }},
      {"combine_us", "combine (us)", [](const R& r) { return r.combine.value * 1e6; }},
      {"compute_busy", "compute busy", [](const R& r) { return r.compute_busy; }},
      {"comm_busy", "communication busy", [](const R& r) { return r.comm_busy; }},
      {"weights_gb_per_gpu", "weights per GPU (GB)",
       [](const R& r) { return r.weights_per_gpu.value / 1e9; }},
      {"kv_cache_gb_per_gpu", "KV cache per GPU (GB)",
       [](const R& r) { return r.kv_cache_per_gpu.value / 1e9; }},
      {"activations_gb_per_gpu", "activations per GPU (GB)",
       [](const R& r) { return r.activations_per_gpu.value / 1e9; }},
      {"largest_batch", "largest batch that fits per GPU",
       [](const R& r) { return static_cast<double>(r.largest_batch); }},
  };
  return columns;
}

}  // namespace codesim::report
