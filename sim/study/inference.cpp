// Inference steps: the bound, or routing -> EP round on SimGrid -> pieces -> overlap.
#include "sim/study/inference.hpp"

#include <algorithm>
#include <cmath>
#include <variant>

#include "models/kernels/batch_routing.hpp"
#include "models/llm/analytics.hpp"
#include "sim/config/loader.hpp"
#include "sim/config/topology_from.hpp"
#include "sim/core/text.hpp"
#include "sim/metrics/inference_figures.hpp"
#include "sim/study/ep_round.hpp"
#include "sim/study/scenario_inputs.hpp"
#include "sim/study/step_shape.hpp"
#include "sim/workload/inference.hpp"
#include "sim/workload/inference_transient.hpp"
#include "sim/workload/piece_model.hpp"
#include "sim/workload/step_power.hpp"
#include "sim/workload/training_state.hpp"
#include "topologies/routing.hpp"

namespace codesim::study {
namespace {

using config::Scenario;
using config::WirePrecision;

// Bytes per channel in the ISCA bound's closed form (no scales or metadata).
double channel_bytes(WirePrecision p) {
  switch (p) {
    case WirePrecision::bf16:
      return 2;
    case WirePrecision::fp8:
    case WirePrecision::logfmt8:
      return 1;
    case WirePrecision::logfmt10:
      return 10.0 / 8;
  }
  return 2;
}

// Weights one GPU holds: its share of everything but the routed experts (attention split over
// the TP group), plus the routed experts it hosts; one byte per parameter with FP8 GEMMs (as
// DeepSeek serves V3), two with BF16.
core::Bytes weights_per_gpu(const Scenario& s, int experts_per_gpu) {
  const double bytes = s.workload.precision.gemm == config::GemmPrecision::fp8 ? 1.0 : 2.0;
  const auto& m = s.model.spec;
  const llm::ModelAnalytics a = llm::analyze(m, s.workload.seq_len);
  const int moe_layers = m.moe_layer_count();
  const double expert = m.moe ? 3.0 * m.hidden * m.moe->expert_inter_dim : 0.0;
  const double routed = m.moe ? expert * m.moe->routed_experts * moe_layers : 0.0;
  // A pipeline stage holds its share of the layers (the embedding and head counted as spread).
  return core::Bytes(
      ((a.params_total - routed) / s.parallelism.tp + expert * experts_per_gpu * moe_layers) *
      bytes / s.parallelism.pp);
}

// Whether the EP group (the first `ep` GPUs) is joined by the scale-up domain alone: the path
// the topology routes from its first GPU to its last crosses no NIC.
bool within_scale_up(const topologies::Topology& t, int ep) {
  const topologies::PathSet set = topologies::route(t, 0, ep - 1, {.max_paths = 1});
  for (const auto e : set.paths.front().links) {
    const topologies::LinkKind k = t.graph()[e].kind;
    if (k == topologies::LinkKind::ib || k == topologies::LinkKind::ethernet) {
      return false;
    }
  }
  return true;
}

void bound_step(const Scenario& s, metrics::InferenceResult& r) {
  const auto& m = s.model.spec;
  const auto& in = s.inference;
  if (s.workload.kind != config::WorkloadKind::decode) {
    config::scenario_error(s, "inference.mode", "bound mode is the decode bound (ISCA 2.3.2)",
                           "use mode: model for prefill");
  }
  const bool inside_node = within_scale_up(config::build_topology(s), s.parallelism.ep);
  const workload::DecodeBoundSpec spec{
      .tokens = r.tokens_per_micro_batch,
      .experts_per_token = (m.moe ? m.moe->activated_experts : 0) +
                           (in.shared_expert_routed && m.moe ? m.moe->shared_experts : 0),
      .hidden = in.bound_hidden > 0 ? in.bound_hidden : m.hidden,
      .dispatch_bytes = channel_bytes(s.workload.precision.dispatch),
      .combine_bytes = channel_bytes(s.workload.precision.combine),
      // ISCA's bound takes the line rates, of the tier the topology routes the EP group over.
      .bandwidth = inside_node ? s.hardware.spec.scale_up.nominal_bandwidth
                               : s.hardware.spec.nic.nominal_bandwidth,
      .layers = m.layers,
      .micro_batches = in.micro_batches};
  const auto b = workload::decode_bound(spec);
  const double d = spec.dispatch_bytes;
  const double c = spec.combine_bytes;
  r.step_time = b.tpot;
  r.dispatch = b.per_layer_transfer * (d / (d + c));
  r.combine = b.per_layer_transfer * (c / (d + c));
  r.comm_busy = 1;
  r.bound_by = std::string(inside_node ? "scale-up" : "scale-out") +
               " bandwidth (bound mode: computation fully hidden, no latency)";
  r.notes.push_back(
      {core::NoteKind::method,
       "bound: (" + core::fixed(d, 0) + " B + " + core::fixed(c, 0) + " B) x " +
           std::to_string(spec.tokens) + " tokens x " + std::to_string(spec.experts_per_token) +
           " experts x " + std::to_string(spec.hidden) + " / " +
           core::fixed(spec.bandwidth.value / 1e9, 0) +
           " GB/s = " + core::fixed(b.per_layer_transfer.value * 1e6, 2) +
           " us per layer and micro-batch, x " + std::to_string(spec.micro_batches) +
           " micro-batches x " + std::to_string(spec.layers) + " layers (ISCA 2025, 2.3.2)"});
}

// One micro-batch's dispatch and combine on the SimGrid platform; returns the busiest GPU's
// token-expert pairs.
double ep_round(const Scenario& s, const topologies::Topology& topology,
                metrics::InferenceResult& r, double shared_scale, const Budget& budget) {
  const int ep = s.parallelism.ep;
  check_platform_budget(s, topology, budget);
  const EpRoundSpec spec{
      .routing = routing_spec(s, r.tokens_per_micro_batch * ep, ep, s.inference.redundant_experts),
      .mode = s.routing.dispatch,
      .payload = ep_payload_of(s),
      .sender_cap = s.hardware.sm_copy_rate * s.hardware.comm_sms,
      .sms = s.hardware.comm_sms,
      .spread = config::path_spread(s)};
  EpRound round;
  try {
    round = simulate_ep_round(topology, spec);
  } catch (const core::KeyedError& e) {
    config::scenario_error(s, e);
  }
  r.notes.push_back(kernels::routing_note(spec.routing, 1));
  r.dispatch = round.dispatch.time * shared_scale;
  r.combine = round.combine.time * shared_scale;
  const auto& load = round.batch.plan.gpu_load;
  return *std::max_element(load.begin(), load.end()) * shared_scale;
}

std::string bound_by(const Scenario& s, const metrics::InferenceResult& r,
                     const workload::LayerPieces& pieces) {
  if (r.comm_busy >= r.compute_busy) {
    return "communication (dispatch + combine busy " + core::fixed(100 * r.comm_busy, 0) +
           "% of the step)";
  }
  const bool moe = s.model.spec.moe.has_value();
  const core::Seconds ffn = moe ? pieces.moe : pieces.dense_mlp;
  const bool attention = pieces.attention >= ffn;
  return std::string("compute: ") + (attention ? "attention" : (moe ? "experts" : "FFN")) + " (" +
         (attention ? pieces.attention_bound : pieces.moe_bound) + ")";
}

// The decode attention kernel the scenario's stack runs for its model's attention.
std::string decode_kernel_name(const Scenario& s) {
  const bool mla = std::holds_alternative<llm::MlaSpec>(s.model.spec.attention);
  switch (s.software.stack) {
    case workload::SoftwareStack::deepseek:
      return mla ? "FlashMLA at its published H800 rates" : "cuDNN SDPA";
    case workload::SoftwareStack::fused:
      return mla ? "absorbed MLA, score kernels fused (assumed)" : "cuDNN SDPA";
    case workload::SoftwareStack::pytorch:
      break;
  }
  return mla ? "absorbed MLA as PyTorch ops" : "cuDNN SDPA";
}

// The GPU's compute at a load: tokens per micro-batch, context, the experts it hosts and the
// token-expert pairs the busiest GPU's experts take (0: tokens x top-k spread evenly).
workload::InferenceSpec inference_spec(const Scenario& s, const StepLoad& load, int experts_per_gpu,
                                       double busiest_expert_tokens) {
  const bool decode = s.workload.kind == config::WorkloadKind::decode;
  return {.model = &s.model.spec,
          .gpu = s.hardware.spec.gpu,
          .phase = decode ? workload::InferencePhase::decode : workload::InferencePhase::prefill,
          .tokens = load.tokens,
          .context_len = load.context,
          .tp = s.parallelism.tp,
          .experts_per_gpu = std::max(1, experts_per_gpu),
          .expert_tokens = busiest_expert_tokens,
          .shared_expert = !(decode && s.inference.shared_expert_routed),
          .sampling = s.inference.sampling,
          .fp8_gemm = s.workload.precision.gemm == config::GemmPrecision::fp8,
          .unfused_attention = s.software.attention == workload::AttentionKernel::unfused,
          .expert_shares = s.inference.expert_shares,
          // Prefill's dispatch and combine (DeepEP normal) hold SMs while the experts compute.
          .held_sms = decode || !s.expert_parallel() ? 0 : s.hardware.comm_sms,
          .pieces = workload::stack_profile(
              s.software.stack, {.cuda_graphs = s.software.cuda_graphs, .inference = true})};
}

workload::OverlapSpec overlap_spec(const Scenario& s, const workload::LayerPieces& pieces,
                                   core::Seconds dispatch, core::Seconds combine) {
  return {.dispatch = dispatch,
          .combine = combine,
          .layers = pieces.layers,
          .micro_batches = s.inference.micro_batches};
}

// A step through pp pipeline stages: the first holds the first ceil(layers / pp) layers, the last
// the last floor(layers / pp) and the output head; the pipeline keeps pp batches in flight,
// so a request's token passes every stage in turn: pp x the slower end stage, plus the hops between
// stages (each GPU's activations of its batch over `link`, the topology's path between stages:
// NVLink within a node, else through the NICs and switches). pp = 1: the plain overlap.
workload::OverlapResult pipelined_step(const Scenario& s, const workload::LayerPieces& pieces,
                                       core::Seconds dispatch, core::Seconds combine,
                                       int tokens_per_micro_batch,
                                       const topologies::PathTiming& link) {
  workload::OverlapSpec spec = overlap_spec(s, pieces, dispatch, combine);
  const int pp = s.parallelism.pp;
  if (pp == 1) {
    return workload::overlap_step(pieces, spec);
  }
  const auto layers = static_cast<std::ptrdiff_t>(spec.layers.size());
  workload::OverlapSpec first = spec;
  first.layers.assign(spec.layers.begin(), spec.layers.begin() + (layers + pp - 1) / pp);
  first.head = false;
  workload::OverlapSpec last = spec;  // the head's stage takes the lighter share
  last.layers.assign(spec.layers.end() - layers / pp, spec.layers.end());
  const auto a = workload::overlap_step(pieces, first);
  const auto b = workload::overlap_step(pieces, last);
  workload::OverlapResult o = a.step >= b.step ? a : b;
  const core::Bytes activations(static_cast<double>(tokens_per_micro_batch) *
                                s.inference.micro_batches * s.model.spec.hidden * 2.0);
  const core::Seconds hop = link.time(activations);
  o.step = o.step * static_cast<double>(pp) + hop * static_cast<double>(pp - 1);
  o.compute_busy = o.compute_busy * static_cast<double>(pp);
  o.comm_busy = o.comm_busy * static_cast<double>(pp);
  return o;
}

// A step under the power governor: its kernels and its waits (each shorter than the governor's
// window) over the step; where the limit holds the clock down, the pieces run at that clock and
// the step is pipelined again.
struct GovernedStep {
  workload::LayerPieces pieces;
  workload::OverlapResult outcome;
  cost::Work work;  // at the top clock
  double clock = 1;
};

GovernedStep governed_step(const Scenario& s, workload::LayerPieces pieces, const StepLoad& load) {
  GovernedStep g{.pieces = std::move(pieces)};
  g.outcome =
      pipelined_step(s, g.pieces, load.dispatch, load.combine, load.tokens, load.stage_link);
  g.work = workload::step_work(g.pieces, s.inference.micro_batches, true);
  const hardware::PowerSpec& power = s.hardware.spec.gpu.power;
  if (power.limit_w <= 0) {
    return g;
  }
  const cost::Governed governed =
      workload::govern_stack(g.work, std::max(core::Seconds(0), g.outcome.step - g.work.total()),
                             power, s.software.stack == workload::SoftwareStack::deepseek);
  if (governed.power_bound) {
    g.clock = governed.ratio;
    g.pieces = workload::at_clock(g.pieces, g.clock, power);
    g.outcome =
        pipelined_step(s, g.pieces, load.dispatch, load.combine, load.tokens, load.stage_link);
  }
  return g;
}

int experts_per_gpu_of(const Scenario& s) {
  const auto& m = s.model.spec;
  return m.moe ? (m.moe->routed_experts + s.inference.redundant_experts) / s.parallelism.ep : 0;
}

// `experts_per_gpu`: routed and redundant experts each GPU of the EP group hosts. Returns the
// token-expert pairs the busiest GPU's experts take (0: tokens x top-k spread evenly).
double model_step(const Scenario& s, int experts_per_gpu, metrics::InferenceResult& r,
                  const Budget& budget) {
  const auto& m = s.model.spec;
  const auto& in = s.inference;
  const bool decode = s.workload.kind == config::WorkloadKind::decode;
  const int topk = m.moe ? m.moe->activated_experts : 0;
  // The shared expert as one more routed one: one more message per token, one more expert's
  // tokens on the GPUs that host it (spread like the routed ones).
  const double shared_scale = decode && in.shared_expert_routed && m.moe && topk > 0
                                  ? static_cast<double>(topk + m.moe->shared_experts) / topk
                                  : 1.0;
  // The cluster, built once: the EP round runs on it, the energy counts its devices.
  const topologies::Topology topology = config::build_topology(s);
  const double busiest_expert_tokens =
      s.expert_parallel() ? ep_round(s, topology, r, shared_scale, budget) : 0.0;
  const workload::InferenceSpec spec =
      inference_spec(s, {.tokens = r.tokens_per_micro_batch, .context = r.context_len},
                     experts_per_gpu, busiest_expert_tokens);
  const GovernedStep g = governed_step(s, workload::inference_pieces(spec),
                                       {.tokens = r.tokens_per_micro_batch,
                                        .dispatch = r.dispatch,
                                        .combine = r.combine,
                                        .stage_link = stage_link(s, topology)});
  const workload::LayerPieces& pieces = g.pieces;
  const workload::OverlapResult& o = g.outcome;
  const hardware::PowerSpec& power = s.hardware.spec.gpu.power;
  r.attention = pieces.attention;
  r.dense_mlp = pieces.dense_mlp;
  r.moe = pieces.moe;
  r.step_time = o.step;
  if (power.limit_w > 0) {
    // Output tokens (a request's draft accepted too with MTP) or prompt tokens.
    const double tokens_per_step =
        (decode ? in.requests_per_gpu * (in.mtp ? 1 + in.mtp_acceptance : 1.0)
                : static_cast<double>(in.prompt_tokens_per_gpu)) *
        s.gpus();
    r.energy =
        job_step_energy(s, {g.work}, {g.clock}, o.step, network_use(s, topology), tokens_per_step);
    const auto notes = workload::power_notes(power, s.hardware.facility);
    r.notes.insert(r.notes.end(), notes.begin(), notes.end());
  }
  r.compute_busy = o.compute_busy / o.step;
  r.comm_busy = o.comm_busy / o.step;
  r.bound_by = bound_by(s, r, pieces);
  for (const auto& note : workload::piece_model_notes(spec.pieces, s.hardware.spec.gpu)) {
    r.notes.push_back(note);
  }
  if (decode) {
    r.notes.push_back(
        {core::NoteKind::method, "decode attention by shape with the stack's kernel (" +
                                     decode_kernel_name(s) + ") over the KV cache (BF16)"});
  }
  if (s.expert_parallel()) {
    r.notes.push_back({core::NoteKind::method,
                       "dispatch and combine of one micro-batch simulated on SimGrid over the EP" +
                           std::to_string(s.parallelism.ep) + " group (" +
                           std::string(config::enum_name(s.routing.dispatch)) + ")"});
  }
  if (!in.expert_counts.empty()) {
    r.notes.push_back({core::NoteKind::method,
                       "routed experts priced layer by layer with each expert's share of the "
                       "token-expert pairs in " +
                           in.expert_counts + " (inference.expert_counts)"});
  }
  if (shared_scale != 1.0) {
    r.notes.push_back({core::NoteKind::estimated,
                       "shared expert as a routed one: dispatch, combine and the busiest GPU's "
                       "expert tokens scaled by " +
                           core::fixed(shared_scale, 3)});
  }
  r.notes.push_back(
      {core::NoteKind::omitted, "attention TP collectives and the MTP draft's own compute"});
  return busiest_expert_tokens;
}

// The transient peak of a step of `tokens` per micro-batch on each GPU; the busiest GPU's experts
// take `busiest_expert_tokens` token-expert pairs (0: tokens x top-k).
workload::TransientPeak transient(const Scenario& s, int tokens, double busiest_expert_tokens) {
  const bool decode = s.workload.kind == config::WorkloadKind::decode;
  const double t = tokens;
  // Logits: each request's position (and its MTP draft's), or each prompt's last.
  const double logit_rows = decode ? t * (s.inference.mtp ? 1 + s.model.spec.mtp_depth : 1)
                                   : std::ceil(t / std::max(1, s.workload.seq_len));
  return workload::inference_transient(
      s.model.spec, s.software.stack,
      {.tokens = t,
       .logit_rows = logit_rows,
       .tp = s.parallelism.tp,
       .expert_rows = busiest_expert_tokens,
       .local_experts = static_cast<double>(std::max(1, experts_per_gpu_of(s))),
       .micro_batches = s.inference.micro_batches});
}

// The step's activations at its peak, what fits (the largest batch at this context) and a warning
// where the step does not.
void memory(const Scenario& s, double busiest_expert_tokens, metrics::InferenceResult& r) {
  const auto& in = s.inference;
  const bool decode = s.workload.kind == config::WorkloadKind::decode;
  const workload::TransientPeak peak =
      transient(s, r.tokens_per_micro_batch, busiest_expert_tokens);
  r.framework = core::Bytes(workload::kFrameworkBytes);
  r.ep_buffers = ep_buffers_of(s, r.tokens_per_micro_batch);
  metrics::add_memory_figures(core::Bytes(peak.bytes), peak.where,
                              decode ? in.requests_per_gpu : in.prompt_tokens_per_gpu, r);
}

}  // namespace

core::Seconds step_time_at(const Scenario& s, const StepLoad& load) {
  return step_price_at(s, load).time;
}

topologies::PathTiming stage_link(const Scenario& s, const topologies::Topology& t) {
  const int pp = s.parallelism.pp;
  return pp > 1 ? topologies::path_timing(t, 0, s.gpus() / pp) : topologies::PathTiming{};
}

StepPrice step_price_at(const Scenario& s, const StepLoad& load) {
  StepLoad at = load;
  if (s.parallelism.pp > 1 && at.stage_link.bandwidth.value <= 0) {
    at.stage_link = stage_link(s, config::build_topology(s));
  }
  const GovernedStep g = governed_step(
      s, workload::inference_pieces(inference_spec(s, at, experts_per_gpu_of(s), 0)), at);
  StepPrice out{.time = g.outcome.step};
  if (s.hardware.spec.gpu.power.limit_w > 0) {
    const metrics::StepEnergy e =
        metrics::step_energy({g.work}, {g.clock}, g.outcome.step, s.hardware.spec.gpu.power,
                             {.gpus_per_rank = static_cast<double>(s.gpus())}, {}, 0);
    out.gpu_joules = e.gpu_compute_j + e.gpu_waiting_j;
  }
  return out;
}

core::Bytes weights_per_gpu(const Scenario& s) {
  return weights_per_gpu(s, experts_per_gpu_of(s));
}

core::Bytes activations_at(const Scenario& s, const StepLoad& load) {
  return core::Bytes(transient(s, load.tokens, 0).bytes);
}

metrics::InferenceResult simulate_inference(const Scenario& s, const Budget& budget) {
  const auto& in = s.inference;
  const bool decode = s.workload.kind == config::WorkloadKind::decode;
  metrics::InferenceResult r;
  r.scenario = s.name;
  r.phase = s.workload.kind == config::WorkloadKind::prefill ? metrics::InferencePhase::prefill
                                                             : metrics::InferencePhase::decode;
  r.mode = in.mode;
  const workload::StepShape shape = inference_shape(s);
  r.gpus = shape.gpus();
  r.gpus_per_node = s.hardware.spec.gpus_per_node;
  r.ep = shape.ep;
  r.tp = shape.tp;
  r.pp = shape.pp;
  r.micro_batches = shape.micro_batches;
  r.tokens_per_micro_batch = shape.tokens_per_gpu();
  r.context_len = decode ? in.context_len : s.workload.seq_len;
  const int experts_per_gpu = experts_per_gpu_of(s);
  double busiest_expert_tokens = 0;
  if (in.mode == workload::InferenceMode::bound) {
    bound_step(s, r);
  } else {
    busiest_expert_tokens = model_step(s, experts_per_gpu, r, budget);
  }
  r.weights_per_gpu = weights_per_gpu(s, experts_per_gpu);
  r.hbm = s.hardware.spec.gpu.hbm_capacity;
  // One request's cache at its context (sliding and chunked layers keep their window).
  metrics::add_throughput({.requests_per_gpu = in.requests_per_gpu,
                           .prompt_tokens_per_gpu = in.prompt_tokens_per_gpu,
                           .context_len = in.context_len,
                           .mtp = in.mtp,
                           .mtp_acceptance = in.mtp_acceptance},
                          llm::kv_cache_bytes(s.model.spec, in.context_len), r);
  memory(s, busiest_expert_tokens, r);
  return r;
}

}  // namespace codesim::study
