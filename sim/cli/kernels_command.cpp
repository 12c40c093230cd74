// `codesim kernels routing|fp8|logfmt|mla`: the CPU reference kernels and what they measure.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <ostream>

#include "models/kernels/balancing.hpp"
#include "models/kernels/batch_routing.hpp"
#include "models/kernels/fp8.hpp"
#include "models/kernels/logfmt.hpp"
#include "models/kernels/mla.hpp"
#include "models/kernels/rng.hpp"
#include "models/kernels/routing_plan.hpp"
#include "models/llm/catalog.hpp"
#include "models/llm/layer_ops.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/gate_flags.hpp"
#include "sim/cli/usage.hpp"
#include "sim/core/error.hpp"
#include "sim/core/text.hpp"
#include "sim/report/figure_table.hpp"
#include "sim/report/format.hpp"
#include "sim/report/schema_version.hpp"
#include "sim/report/table.hpp"

namespace codesim::cli {
namespace {

using nlohmann::ordered_json;
using namespace codesim::kernels;

llm::LlmSpec model_of(const KernelsOptions& o) {
  const auto m = llm::find_preset(o.model);
  if (!m) {
    throw_usage_error("kernels", "unknown model '" + o.model + "'",
                      "presets: " + core::join(llm::preset_names(), ", "));
  }
  return *m;
}

// The model's gate with --node-limit applied; the routing flags checked.
GateSpec routing_gate(const KernelsOptions& o, const llm::LlmSpec& m) {
  if (!m.moe) {
    throw_usage_error("kernels", m.name + " is a dense model: it has no experts to route to");
  }
  GateSpec spec = gate_spec(m);
  apply_node_limit(spec, o.node_limit, "kernels");
  if (o.ep < 1 || spec.experts % o.ep != 0) {
    throw_usage_error("kernels", "--ep must divide the model's " + std::to_string(spec.experts) +
                                     " routed experts, got " + std::to_string(o.ep));
  }
  if (o.tokens < 1 || o.balance_steps < 0 || o.balance_tokens < 1) {
    throw_usage_error(
        "kernels",
        "--tokens and --balance-tokens must be positive and --balance-steps not negative");
  }
  return spec;
}

// What the plan sends per GPU (RDMA, NVLink forwarding, direct) and the direct matrix.
void add_plan_traffic(ordered_json& j, const RoutingPlan& plan) {
  std::vector<long long> rdma_sent(static_cast<std::size_t>(plan.ep));
  std::vector<long long> nvlink_sent(static_cast<std::size_t>(plan.ep));
  std::vector<long long> direct_sent(static_cast<std::size_t>(plan.ep));
  for (int s = 0; s < plan.ep; ++s) {
    rdma_sent[static_cast<std::size_t>(s)] = plan.rdma.row(s).sum();
    nvlink_sent[static_cast<std::size_t>(s)] = plan.nvlink.row(s).sum();
    direct_sent[static_cast<std::size_t>(s)] = plan.direct.row(s).sum();
  }
  j["dispatch_tokens_received_per_gpu"] = plan.received_per_gpu();
  j["dispatch_rdma_tokens_sent_per_gpu"] = rdma_sent;
  j["dispatch_nvlink_tokens_sent_per_gpu"] = nvlink_sent;
  j["dispatch_direct_tokens_sent_per_gpu"] = direct_sent;
  // Row s, column d: tokens GPU s sends straight to GPU d (direct dispatch; the split sizes of an
  // uneven all_to_all_single, as tools/calibration/nccl_node.py uses them).
  std::vector<std::vector<int>> direct(static_cast<std::size_t>(plan.ep));
  for (int s = 0; s < plan.ep; ++s) {
    for (int d = 0; d < plan.ep; ++d) {
      direct[static_cast<std::size_t>(s)].push_back(plan.direct(s, d));
    }
  }
  j["dispatch_direct_matrix"] = direct;
}

ordered_json run_routing(const KernelsOptions& o) {
  const llm::LlmSpec m = model_of(o);
  const GateSpec spec = routing_gate(o, m);
  const int hidden = o.hidden > 0 ? o.hidden : m.hidden;
  const RoutedBatch batch = route_batch(
      {.gate = spec,
       .hidden = hidden,
       .tokens = o.tokens,
       .ep = o.ep,
       .gpus_per_node = o.gpus_per_node,
       .skew = {.zipf = o.zipf, .topics = o.topics, .strength = static_cast<float>(o.strength)},
       .balance_steps = o.balance_steps,
       .balance_tokens = o.balance_tokens,
       .gamma = static_cast<float>(o.gamma),
       .redundant = o.redundant,
       .eplb = o.eplb == "hierarchical" ? EplbPolicy::hierarchical : EplbPolicy::global,
       .seed = o.seed});
  const RoutingPlan& plan = batch.plan;
  ordered_json j;
  j["schema_version"] = report::kSchemaVersion;
  j["model"] = m.name;
  j["tokens"] = o.tokens;
  j["ep"] = o.ep;
  j["gpus_per_node"] = o.gpus_per_node;
  j["node_limit"] = spec.topk_groups;
  j["hidden"] = hidden;
  j["skew"] = {{"zipf", o.zipf}, {"topics", o.topics}, {"strength", o.strength}};
  j["routing_uses"] = o.balance_steps > 0 ? "balanced bias" : "no bias";
  j["max_nodes_per_token"] = plan.max_nodes_per_token();
  j["mean_nodes_per_token"] = plan.mean_nodes_per_token();
  j["mean_experts_per_node"] = plan.mean_experts_per_node();
  j["mean_experts_per_node_published"] = 3.2;  // DeepSeek-V3 report, trained router
  add_plan_traffic(j, plan);
  j["gpu_load_cv"] = coefficient_of_variation(plan.gpu_load);
  j["balance_steps"] = o.balance_steps;
  j["balance_tokens_per_step"] = o.balance_tokens;
  j["gamma"] = o.gamma;
  j["expert_load_cv_unbalanced"] =
      coefficient_of_variation(expert_load(batch.unbalanced, spec.experts));
  j["expert_load_cv_balanced"] = coefficient_of_variation(expert_load(batch.routed, spec.experts));
  j["sequence_balance_loss_unbalanced"] = sequence_balance_loss(batch.unbalanced, 1e-4);
  j["sequence_balance_loss_balanced"] = sequence_balance_loss(batch.routed, 1e-4);
  return j;
}

RowMatrixXf gaussian(int rows, int cols, Rng& rng) {
  RowMatrixXf x(rows, cols);
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    x.data()[i] = static_cast<float>(rng.normal());
  }
  return x;
}

ordered_json run_fp8(const KernelsOptions& o) {
  if (o.m < 1 || o.k < 1 || o.n < 1 || o.m * static_cast<double>(o.k) * o.n > 5e9) {
    throw_usage_error(
        "kernels",
        "--m, --k, --n must be positive with m x k x n at most 5e9 (the emulation is scalar)");
  }
  if (o.mantissa_bits < 1 || o.mantissa_bits > 52 || o.interval < 0) {
    throw_usage_error("kernels", "--mantissa-bits must be 1 to 52 and --interval not negative");
  }
  Rng rng(o.seed);
  const RowMatrixXf a = gaussian(o.m, o.k, rng);
  const RowMatrixXf b = gaussian(o.k, o.n, rng);
  const Fp8Tensor qa = quantize_activations(a);
  const Fp8Tensor qb = quantize_weights(b);
  const Eigen::MatrixXd unquantized = a.cast<double>() * b.cast<double>();
  const Eigen::MatrixXd dequantized = dequantize(qa).cast<double>() * dequantize(qb).cast<double>();
  const AccumulatorSpec promoted{.mantissa_bits = o.mantissa_bits,
                                 .promotion_interval = o.interval};
  const AccumulatorSpec unpromoted{.mantissa_bits = o.mantissa_bits, .promotion_interval = 0};
  const RowMatrixXf c_promoted = fp8_gemm(qa, qb, promoted);
  const RowMatrixXf c_unpromoted = fp8_gemm(qa, qb, unpromoted);
  ordered_json j;
  j["schema_version"] = report::kSchemaVersion;
  j["m"] = o.m;
  j["k"] = o.k;
  j["n"] = o.n;
  j["accumulator_mantissa_bits"] = o.mantissa_bits;
  j["promotion_interval"] = o.interval;
  j["data"] = "standard normal, 1x128 activation tiles, 128x128 weight blocks";
  j["relative_error_quantization"] = (dequantized - unquantized).norm() / unquantized.norm();
  j["relative_error_promoted"] = relative_error(c_promoted, dequantized);
  j["relative_error_unpromoted"] = relative_error(c_unpromoted, dequantized);
  j["relative_error_promoted_vs_fp64"] = relative_error(c_promoted, unquantized);
  j["relative_error_unpromoted_vs_fp64"] = relative_error(c_unpromoted, unquantized);
  return j;
}

ordered_json run_logfmt(const KernelsOptions& o) {
  if (o.values < 128 || o.values % 128 != 0) {
    throw_usage_error(
        "kernels", "--values must be a positive multiple of 128, got " + std::to_string(o.values));
  }
  Rng rng(o.seed);
  std::vector<float> x(o.values);
  for (auto& v : x) {
    v = static_cast<float>(rng.normal());
  }
  auto error = [&](const std::vector<float>& y) { return relative_rms_error(x, y); };
  std::vector<float> bf16(x.size());
  std::transform(x.begin(), x.end(), bf16.begin(), round_to_bf16);
  ordered_json j;
  j["schema_version"] = report::kSchemaVersion;
  j["values"] = o.values;
  j["data"] = "standard normal, tiles of 128";
  j["relative_rms_error"] = {{"bf16", error(bf16)},
                             {"e4m3", error(round_per_tile(x, kE4M3))},
                             {"e5m2", error(round_per_tile(x, kE5M2))},
                             {"logfmt8", error(logfmt_roundtrip(x, 8))},
                             {"logfmt10", error(logfmt_roundtrip(x, 10))}};
  const double n = o.values;
  j["bytes_per_value"] = {{"bf16", 2.0},
                          {"e4m3", (n + std::ceil(n / 128) * 4) / n},
                          {"logfmt8", logfmt_bytes(n, 8) / n},
                          {"logfmt10", logfmt_bytes(n, 10) / n}};
  return j;
}

ordered_json run_mla(const KernelsOptions& o) {
  llm::LlmSpec m = model_of(o);
  const auto* shape = std::get_if<llm::MlaSpec>(&m.attention);
  if (shape == nullptr) {
    throw_usage_error("kernels", m.name + " has no MLA attention");
  }
  if (o.heads < 1 || o.heads > m.heads || o.tokens < 1 || o.tokens > 4096) {
    throw_usage_error(
        "kernels", "--heads must be 1 to " + std::to_string(m.heads) + " and --tokens 1 to 4096");
  }
  m.heads = o.heads;  // a slice of the heads keeps the weights small; per-head work is the same
  Rng rng(o.seed);
  const auto w = random_mla_weights(*shape, m.hidden, m.heads, o.seed + 1);
  const RowMatrixXf x = gaussian(o.tokens, m.hidden, rng);
  const auto naive = mla_naive(x, w);
  const auto absorbed = mla_absorbed(x, w);
  double analytics = 0;
  for (const auto& op :
       llm::attention_ops(m, m.layer(0), {.seq_len = o.tokens, .micro_batch = 1, .causal = false})) {
    analytics += llm::counts_as_model_flops(op.op_class) ? op.forward.value : 0.0;
  }
  ordered_json j;
  j["schema_version"] = report::kSchemaVersion;
  j["model"] = m.name;
  j["tokens"] = o.tokens;
  j["heads"] = m.heads;
  j["relative_difference_naive_absorbed"] = (naive.out - absorbed.out).norm() / naive.out.norm();
  j["naive_gflop"] = naive.flops / 1e9;
  j["absorbed_gflop"] = absorbed.flops / 1e9;
  j["analytics_gflop_noncausal"] = analytics / 1e9;
  return j;
}

}  // namespace

void run_kernels(const KernelsOptions& o, std::ostream& out) {
  ordered_json j;
  if (o.what == "routing") {
    j = run_routing(o);
  } else if (o.what == "fp8") {
    j = run_fp8(o);
  } else if (o.what == "logfmt") {
    j = run_logfmt(o);
  } else if (o.what == "mla") {
    j = run_mla(o);
  } else {
    throw_usage_error("kernels", "unknown kernel '" + o.what + "'",
                      "one of: routing, fp8, logfmt, mla");
  }
  write_figures(j, o.format, out);
}

}  // namespace codesim::cli
