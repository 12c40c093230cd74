// Inference steps: the bound, or routing -> EP round on SimGrid -> pieces -> overlap -> report.
#include "sim/cli/inference_run.hpp"

#include <algorithm>

#include "models/kernels/batch_routing.hpp"
#include "models/llm/analytics.hpp"
#include "sim/cli/scenario_inputs.hpp"
#include "sim/cli/usage.hpp"
#include "sim/config/topology_from.hpp"
#include "sim/engine/platform.hpp"
#include "sim/report/atomic_file.hpp"
#include "sim/report/format.hpp"
#include "sim/report/inference_report.hpp"
#include "sim/workload/inference.hpp"

namespace codesim::cli {
namespace {

using config::Scenario;
using config::WirePrecision;

double channel_bytes(WirePrecision p) {
  switch (p) {
    case WirePrecision::bf16:
      return 2;
    case WirePrecision::fp8:
      return 1;
    case WirePrecision::logfmt8:
      return 1;
    case WirePrecision::logfmt10:
      return 10.0 / 8;
  }
  return 2;
}

// Weights one GPU holds (1 byte per parameter, FP8): its share of everything but the routed
// experts (attention split over the TP group), plus the routed experts it hosts.
double weights_gb_per_gpu(const Scenario& s, int experts_per_gpu) {
  const auto& m = s.model.spec;
  const llm::ModelAnalytics a = llm::analyze(m, s.workload.seq_len);
  const int moe_layers = m.moe ? m.layers - m.dense_layers : 0;
  const double expert = m.moe ? 3.0 * m.hidden * m.moe->expert_inter_dim : 0.0;
  const double routed = m.moe ? expert * m.moe->routed_experts * moe_layers : 0.0;
  return ((a.params_total - routed) / s.parallelism.tp + expert * experts_per_gpu * moe_layers) /
         1e9;
}

void bound_step(const Scenario& s, metrics::InferenceResult& r) {
  const auto& m = s.model.spec;
  const auto& in = s.inference;
  if (s.workload.kind != config::WorkloadKind::decode) {
    scenario_error(s, "inference.mode", "bound mode is the decode bound (ISCA 2.3.2)",
                   "use mode: model for prefill");
  }
  const int experts = (m.moe ? m.moe->activated_experts : 0) +
                      (in.shared_expert_routed && m.moe ? m.moe->shared_experts : 0);
  const int hidden = in.bound_hidden > 0 ? in.bound_hidden : m.hidden;
  const bool inside_node = s.parallelism.ep <= s.hardware.spec.gpus_per_node;
  const core::BytesPerSecond bandwidth =
      inside_node ? s.hardware.spec.scale_up.bandwidth : s.hardware.spec.nic.bandwidth;
  const double d = channel_bytes(s.workload.precision.dispatch);
  const double c = channel_bytes(s.workload.precision.combine);
  const auto b = workload::decode_bound(r.tokens_per_micro_batch, experts, hidden, d, c, bandwidth,
                                        m.layers, in.micro_batches);
  r.step_time = b.tpot;
  r.dispatch = b.per_layer_transfer * (d / (d + c));
  r.combine = b.per_layer_transfer * (c / (d + c));
  r.comm_busy = 1;
  r.bound_by = std::string(inside_node ? "scale-up" : "scale-out") +
               " bandwidth (bound mode: computation fully hidden, no latency)";
  r.notes.push_back("bound: (" + report::fixed(d, 0) + " B + " + report::fixed(c, 0) + " B) x " +
                    std::to_string(r.tokens_per_micro_batch) + " tokens x " +
                    std::to_string(experts) + " experts x " + std::to_string(hidden) + " / " +
                    report::fixed(bandwidth.value / 1e9, 0) +
                    " GB/s = " + report::fixed(b.per_layer_transfer.value * 1e6, 2) +
                    " us per layer and " + "micro-batch, x " + std::to_string(in.micro_batches) +
                    " micro-batches x " + std::to_string(m.layers) + " layers (ISCA 2025, 2.3.2)");
}

// `experts_per_gpu`: routed and redundant experts each GPU of the EP group hosts.
void model_step(const Scenario& s, int experts_per_gpu, metrics::InferenceResult& r,
                double max_memory_mb) {
  const auto& m = s.model.spec;
  const auto& in = s.inference;
  const bool decode = s.workload.kind == config::WorkloadKind::decode;
  const int ep = s.parallelism.ep;
  const int topk = m.moe ? m.moe->activated_experts : 0;
  // The shared expert as one more routed one: one more message per token, one more expert's
  // tokens on the GPUs that host it (spread like the routed ones).
  const double shared_scale = decode && in.shared_expert_routed && m.moe && topk > 0
                                  ? static_cast<double>(topk + m.moe->shared_experts) / topk
                                  : 1.0;
  double busiest_expert_tokens = 0;
  if (m.moe && ep > 1) {
    kernels::RoutedBatch batch;
    try {
      batch = kernels::route_batch(
          routing_spec(s, r.tokens_per_micro_batch * ep, ep, in.redundant_experts));
    } catch (const std::invalid_argument& e) {
      scenario_error(s, "inference.redundant_experts", e.what());
    }
    busiest_expert_tokens =
        *std::max_element(batch.plan.gpu_load.begin(), batch.plan.gpu_load.end()) * shared_scale;
    const std::vector<int> gpus = topologies::first_gpus(ep);
    const auto flows =
        engine::ep_flows(batch.plan, ep_mode_of(s.routing.dispatch), ep_payload_of(s), gpus);
    const topologies::Topology topology = config::build_topology(s);
    check_platform_budget(s, topology, max_memory_mb);
    engine::Platform platform(topology, config::path_spread(s));
    const auto cap = s.hardware.sm_copy_rate * s.hardware.comm_sms;
    const auto t = platform.run({
        engine::Transfer{.name = "dispatch", .flows = flows.dispatch, .sender_cap = cap},
        engine::Transfer{
            .name = "combine", .flows = flows.combine, .after = {0}, .sender_cap = cap},
    });
    r.dispatch = (t[0].end - t[0].start) * shared_scale;
    r.combine = (t[1].end - t[1].start) * shared_scale;
  }
  const workload::InferenceSpec spec{
      .model = &m,
      .gpu = s.hardware.spec.gpu,
      .phase = decode ? workload::InferencePhase::decode : workload::InferencePhase::prefill,
      .tokens = r.tokens_per_micro_batch,
      .context_len = r.context_len,
      .tp = s.parallelism.tp,
      .experts_per_gpu = std::max(1, experts_per_gpu),
      .expert_tokens = busiest_expert_tokens,
      .shared_expert = !decode,
      .fp8_gemm = s.workload.precision.gemm == config::GemmPrecision::fp8,
      .held_sms = decode ? 0 : s.hardware.comm_sms};
  const auto pieces = workload::inference_pieces(spec);
  r.attention = pieces.attention;
  r.dense_mlp = pieces.dense_mlp;
  r.moe = pieces.moe;
  const auto o = workload::overlap_step(pieces, r.dispatch, r.combine, m.layers, m.dense_layers,
                                        in.micro_batches);
  r.step_time = o.step;
  r.compute_busy = o.compute_busy / o.step;
  r.comm_busy = o.comm_busy / o.step;
  if (r.comm_busy >= r.compute_busy) {
    r.bound_by = "communication (dispatch + combine busy " + report::fixed(100 * r.comm_busy, 0) +
                 "% of the step)";
  } else {
    const bool attention = pieces.attention >= pieces.moe;
    r.bound_by = std::string("compute: ") + (attention ? "attention" : "experts") + " (" +
                 (attention ? pieces.attention_bound : pieces.moe_bound) + "-bound)";
  }
  r.notes.push_back(std::string("model: ") +
                    (decode ? "decode pieces from the kernel cost model (roofline with HBM "
                              "bandwidth; KV cache read in BF16)"
                            : "prefill pieces are the training forward pieces fitted to "
                              "DeepSeek's H800 profile trace") +
                    "; dispatch and combine of one micro-batch simulated on SimGrid over the EP" +
                    std::to_string(ep) + " group (" +
                    std::string(config::enum_name(s.routing.dispatch)) +
                    "), routed by the reference gate with " + std::to_string(in.redundant_experts) +
                    " redundant experts (EPLB)");
  if (shared_scale != 1.0) {
    r.notes.push_back(
        "shared expert as a routed one: dispatch, combine and the busiest GPU's "
        "expert tokens scaled by " +
        report::fixed(shared_scale, 3));
  }
  r.notes.push_back(
      "not modelled: attention TP collectives, embedding and output head, and the "
      "MTP draft's own compute");
}

}  // namespace

metrics::InferenceResult simulate_inference(const Scenario& s, double max_memory_mb) {
  const auto& in = s.inference;
  const bool decode = s.workload.kind == config::WorkloadKind::decode;
  if (!s.model.spec.moe) {
    scenario_error(s, "model", "inference steps are modelled for MoE models only");
  }
  metrics::InferenceResult r;
  r.scenario = s.name;
  r.phase = decode ? "decode" : "prefill";
  r.mode = std::string(config::enum_name(in.mode));
  r.gpus = s.gpus();
  r.gpus_per_node = s.hardware.spec.gpus_per_node;
  r.ep = s.parallelism.ep;
  r.tp = s.parallelism.tp;
  r.micro_batches = in.micro_batches;
  r.tokens_per_micro_batch =
      (decode ? in.requests_per_gpu : in.prompt_tokens_per_gpu) / in.micro_batches;
  r.context_len = decode ? in.context_len : s.workload.seq_len;
  const int experts_per_gpu =
      (s.model.spec.moe->routed_experts + in.redundant_experts) / s.parallelism.ep;
  if (in.mode == config::InferenceMode::bound) {
    bound_step(s, r);
  } else {
    model_step(s, experts_per_gpu, r, max_memory_mb);
  }
  const double kv_per_token = llm::kv_cache_bytes_per_token(s.model.spec).value;
  r.weights_gb_per_gpu = weights_gb_per_gpu(s, experts_per_gpu);
  r.hbm_gb = s.hardware.spec.gpu.hbm_capacity.value / 1e9;
  if (decode) {
    r.tpot_without_mtp = r.step_time;
    r.tpot = workload::effective_tpot(r.step_time, in.mtp, in.mtp_acceptance);
    r.tokens_per_s_per_request = 1.0 / r.tpot.value;
    r.tokens_per_s_per_gpu = in.requests_per_gpu / r.tpot.value;
    // Each request's cache on one GPU of its TP group (sequence-parallel attention).
    r.kv_cache_gb_per_gpu = kv_per_token * in.context_len * in.requests_per_gpu / 1e9;
    if (in.mtp) {
      r.notes.push_back("MTP: " + report::fixed(1 + in.mtp_acceptance, 2) +
                        " tokens per request and step (acceptance " +
                        report::fixed(in.mtp_acceptance, 2) + ")");
    }
  } else {
    r.ttft = r.step_time;
    r.tokens_per_s_per_gpu = in.prompt_tokens_per_gpu / r.step_time.value;
    r.kv_cache_gb_per_gpu = kv_per_token * in.prompt_tokens_per_gpu / 1e9;
  }
  r.tokens_per_s_per_node = r.tokens_per_s_per_gpu * r.gpus_per_node;
  if (r.weights_gb_per_gpu + r.kv_cache_gb_per_gpu > r.hbm_gb) {
    r.notes.push_back("memory: weights and KV cache need " +
                      report::fixed(r.weights_gb_per_gpu + r.kv_cache_gb_per_gpu, 1) +
                      " GB per GPU, more than its " + report::fixed(r.hbm_gb, 0) + " GB");
  }
  return r;
}

void run_inference(const Scenario& s, const RunOptions& o, std::ostream& out) {
  if (o.format != "table" && o.format != "json") {
    throw_usage_error("run", "inference steps are reported as table or json so far", "",
                      "--format");
  }
  const metrics::InferenceResult r = simulate_inference(s, o.max_memory_mb);
  const auto j = report::inference_json(r);
  if (!o.report.empty()) {
    report::write_file_atomically(o.report, j.dump(2) + "\n");
  }
  out << (o.format == "json" ? j.dump(2) + "\n" : report::inference_table(r));
}

}  // namespace codesim::cli
