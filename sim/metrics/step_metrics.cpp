// Breakdown, throughput, exposed communication, overlapped pairs, link use and memory of a
// replayed step, each computed by its own function from the timeline.
#include "sim/metrics/step_metrics.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <string>
#include <tuple>

#include "models/llm/analytics.hpp"
#include "sim/core/text.hpp"
#include "sim/core/intervals.hpp"
#include "sim/metrics/step_lanes.hpp"
#include "sim/workload/memory_timeline.hpp"
#include "sim/workload/saved_tensors.hpp"
#include "sim/workload/schedule.hpp"
#include "sim/workload/training_state.hpp"

namespace codesim::metrics {
namespace {

using workload::ChunkKind;

constexpr double kSecondsPerDay = 86400;

// FLOPs a token's recomputation adds (causal): full recomputation runs the transformer layers'
// forward again (not the embedding, head or MTP); selective adds nothing the fused attention
// backward does not already do.
double recomputed_flops_per_token(const llm::ModelAnalytics& a, workload::Recompute r) {
  if (r != workload::Recompute::full) {
    return 0;
  }
  double flops = 0;
  for (const auto& block : a.blocks) {
    if (block.kind != llm::BlockKind::dense && block.kind != llm::BlockKind::moe) {
      continue;
    }
    for (const auto& op : block.ops) {
      if (llm::counts_as_model_flops(op.op_class)) {
        flops += op.forward.value * block.count();
      }
    }
  }
  return flops / a.seq_len;
}

// On the first rank: its compute stream's busy time, and per group the communication time its
// compute does not cover (the exposed spans of its lanes).
void exposed_communication(metrics::RunResult& r, const RankActivity& first,
                           const metrics::RankLanes& lanes) {
  for (const auto& i : merged(first.compute)) {
    r.compute_busy += core::Seconds(i.b - i.a);
  }
  for (const metrics::CommGroup g : metrics::kCommGroups) {
    r.exposed_comm[g] = core::Seconds(0);
  }
  for (const auto& e : lanes.exposed) {
    r.exposed_comm[e.group] += e.end - e.start;
  }
}

// The median overlapped F&B pair between two plain MoE stages (no embedding, head or dense
// layer), from its first real piece (not its wait for inputs) to its last.
void overlapped_pairs(metrics::RunResult& r, const workload::StepProgram& p, const ReplayedStep& t,
                      const StepFacts& f) {
  auto plain = [&](int stage) {
    const auto& sl = p.placement[static_cast<std::size_t>(stage)];
    bool moe = !sl.embedding && !sl.head;
    for (int l = sl.first_layer; moe && l <= sl.last_layer; ++l) {
      moe = f.model->is_moe_layer(l);
    }
    return moe;
  };
  std::map<std::pair<int, int>, Interval> pairs;
  for (const auto& task : p.tasks) {
    if (task.chunk < 0 || task.chunk_kind != ChunkKind::forward_backward) {
      continue;
    }
    const auto& chunk =
        p.schedule
            .per_rank[static_cast<std::size_t>(task.rank)][static_cast<std::size_t>(task.chunk)];
    if (!plain(chunk.work.stage) || !plain(chunk.backward.stage)) {
      continue;
    }
    const auto& tt = t.tasks[static_cast<std::size_t>(task.id)];
    const bool waiting = task.piece.kind == workload::PieceKind::recv;
    auto [it, fresh] = pairs.emplace(std::make_pair(task.rank, task.chunk),
                                     Interval{waiting ? 1e300 : tt.start.value, tt.end.value});
    if (!fresh) {
      if (!waiting) {
        it->second.a = std::min(it->second.a, tt.start.value);
      }
      it->second.b = std::max(it->second.b, tt.end.value);
    }
  }
  std::vector<double> spans;
  for (const auto& [k, i] : pairs) {
    spans.push_back(i.b - i.a);
  }
  if (!spans.empty()) {
    const auto mid = spans.begin() + static_cast<long>(spans.size() / 2);
    std::nth_element(spans.begin(), mid, spans.end());
    r.median_pair = core::Seconds(*mid);
  }
  r.pairs_measured = static_cast<int>(spans.size());
}

// Per tier of directed links, GPU side first and up the network (by the kinds of its ends), each
// tier's upward direction before its downward one; and each tier's most utilized link.
struct Tiers {
  std::vector<metrics::TierUse> use;
  std::vector<int> highest;  // per tier: a directed link, -1 when none was used
};
Tiers tier_use(const ReplayedStep& step_links, core::Seconds step) {
  const std::vector<DirectedLink>& links = step_links.links;
  std::map<std::tuple<int, int, bool, std::string>, std::pair<metrics::TierUse, int>> tiers;
  for (std::size_t d = 0; d < links.size(); ++d) {
    const DirectedLink& l = links[d];
    const auto [a, b] = l.ends;
    const std::string& name = step_links.tier_names[static_cast<std::size_t>(l.tier)];
    auto& [t, highest] =
        tiers.try_emplace({std::min(a, b), std::max(a, b), a > b, name}, metrics::TierUse{}, -1)
            .first->second;
    t.tier = name;
    ++t.links;
    if (l.bytes.value > 0) {
      const double utilization = l.bytes.value / (l.bandwidth.value * step.value);
      ++t.used;
      t.bytes += l.bytes;
      t.mean_utilization += utilization;
      if (utilization > t.max_utilization) {
        t.max_utilization = utilization;
        highest = static_cast<int>(d);
      }
    }
  }
  Tiers out;
  for (auto& [key, tier] : tiers) {
    auto& [t, highest] = tier;
    if (t.used > 0) {
      t.mean_utilization /= t.used;
    }
    out.use.push_back(t);
    out.highest.push_back(highest);
  }
  return out;
}

// Per directed link in `links`: how long the transfers that load it were in flight, from the end
// of their task's own computation to the task's end, overlapping spans counted once.
std::vector<core::Seconds> in_flight(const workload::StepProgram& p, const ReplayedStep& t,
                                     const std::vector<int>& links) {
  // Which of the links each distinct transfer loads.
  const auto& loaded = t.links_of_transfer;
  std::vector<std::vector<char>> loads_link(loaded.size());
  for (std::size_t i = 0; i < loaded.size(); ++i) {
    for (const int d : links) {
      loads_link[i].push_back(std::binary_search(loaded[i].begin(), loaded[i].end(), d) ? 1 : 0);
    }
  }
  std::vector<std::vector<Interval>> spans(links.size());
  for (std::size_t k = 0; k < t.tasks.size(); ++k) {
    const int i = t.transfer_of_task[k];
    if (i < 0) {
      continue;
    }
    const double begin = t.tasks[k].start.value + p.tasks[k].duration.value;
    for (std::size_t j = 0; j < links.size(); ++j) {
      if (loads_link[static_cast<std::size_t>(i)][j] != 0) {
        spans[j].push_back({begin, t.tasks[k].end.value});
      }
    }
  }
  std::vector<core::Seconds> out;
  for (auto& s : spans) {
    double length = 0;
    for (const Interval& x : merged(std::move(s))) {
      length += x.b - x.a;
    }
    out.push_back(core::Seconds(length));
  }
  return out;
}

// The five busiest links by utilization and the link tiers, each busiest link and each tier's
// most utilized one also over the time its transfers were in flight.
void link_use(metrics::RunResult& r, const workload::StepProgram& p, const ReplayedStep& t) {
  r.ib_bytes_per_gpu = t.ib_bytes_per_gpu;
  std::vector<std::pair<double, int>> use;
  for (std::size_t d = 0; d < t.links.size(); ++d) {
    const DirectedLink& l = t.links[d];
    if (l.bytes.value > 0) {
      use.emplace_back(l.bytes.value / (l.bandwidth.value * r.step_time.value),
                       static_cast<int>(d));
    }
  }
  Tiers tiers = tier_use(t, r.step_time);
  std::sort(use.begin(), use.end(), [](const auto& x, const auto& y) {
    return x.first != y.first ? x.first > y.first : x.second < y.second;
  });
  // In flight: the busiest links, then each used tier's most utilized link.
  std::vector<int> measured;
  const std::size_t busiest = std::min<std::size_t>(5, use.size());
  for (std::size_t i = 0; i < busiest; ++i) {
    measured.push_back(use[i].second);
  }
  for (const int d : tiers.highest) {
    if (d >= 0) {
      measured.push_back(d);
    }
  }
  const std::vector<core::Seconds> flight = in_flight(p, t, measured);
  auto driven = [&](std::size_t i) {
    const DirectedLink& l = t.links[static_cast<std::size_t>(measured[i])];
    return flight[i].value > 0 ? l.bytes.value / (l.bandwidth.value * flight[i].value) : 0.0;
  };
  for (std::size_t i = 0; i < busiest; ++i) {
    const DirectedLink& l = t.links[static_cast<std::size_t>(measured[i])];
    r.busiest_links.push_back({l.name, l.bytes, use[i].first, flight[i], driven(i)});
  }
  std::size_t next = busiest;
  for (std::size_t k = 0; k < tiers.use.size(); ++k) {
    if (tiers.highest[k] >= 0) {
      tiers.use[k].max_in_flight_utilization = driven(next++);
    }
  }
  r.tiers = std::move(tiers.use);
}

}  // namespace

core::Note activation_note(workload::SoftwareStack stack) {
  return {
      stack == workload::SoftwareStack::deepseek ? core::NoteKind::assumed : core::NoteKind::fitted,
      "activations: each layer's saved tensors as software.stack " +
          std::string(workload::stack_name(stack)) +
          (stack == workload::SoftwareStack::deepseek
               ? " keeps them by DeepSeek-V3's stated recipe (norms and MLA up projections "
                 "recomputed, FP8 and E5M6 storage; not measured)"
               : " keeps them (H200 layers and heads measured, within 1%)") +
          ", held as the first rank's schedule allocates and frees them, at their peak "
          "(docs/model/memory.md)"};
}

namespace {

// A stage's activations for one micro-batch: its layers' saved tensors, and the head's and the
// MTP modules' where it holds them; with full recomputation only its layers' inputs, and
// `recomputing` one layer's whole set at a time.
struct StageActivations {
  double kept = 0;
  double recomputing = 0;
};

StageActivations stage_activations(const workload::StageLayers& st, const StepFacts& f) {
  const llm::LlmSpec& m = *f.model;
  const workload::ActivationContext c{
      .tokens = static_cast<double>(f.shape.tokens_per_cp_shard()),
      .tp = f.shape.tp,
      .sequence_parallel = f.shape.sequence_parallel,
      .local_experts =
          m.moe ? std::max(1.0, static_cast<double>(m.moe->routed_experts) / f.shape.ep) : 1.0,
      .unfused_attention = f.shape.attention == workload::AttentionKernel::unfused,
      .seq_len = static_cast<double>(f.shape.seq_len),
      .dropout = f.shape.dropout};
  const bool full = f.shape.recompute == workload::Recompute::full;
  StageActivations out;
  auto layer = [&](const llm::LayerKind& kind) {
    const auto tensors = workload::saved_tensors(m, kind, f.stack, c);
    const double all = workload::total_bytes(tensors);
    out.kept += full ? tensors.front().bytes : all;  // the first is the layer's input
    out.recomputing = std::max(out.recomputing, full ? all : 0.0);
  };
  for (int l = st.first_layer; l <= st.last_layer; ++l) {
    layer(m.layer(l));
  }
  if (st.head) {
    for (int i = 0; i < m.mtp_depth; ++i) {
      layer(m.layer(m.layers - 1));
    }
    out.kept += workload::total_bytes(workload::head_saved_tensors(m, f.stack, c));
  }
  return out;
}

// The step's moments above its state and activations (models/calibration/h200/memory: the
// head runs' peak less what they keep): eager cross-entropy's backward holds the FP32 gradients
// of the log-probabilities and of the logits at once, 8 bytes per logit, before the head's weight
// gradient exists; where the backward creates the gradients, that weight gradient is the first
// one (torch.compile's head: its peak less what it keeps). The optimizer: PyTorch's foreach AdamW
// makes the square root of the second moment a temporary as large as the moments.
void transients(metrics::MemoryUse& m, const workload::StepProgram& p, const StepFacts& f,
                double shard, int rank) {
  m.gradients_persist = f.shape.micro_batches > 1 || f.stack == workload::SoftwareStack::deepseek;
  bool head = false;
  for (const int st : p.schedule.stages_of(rank)) {
    head = head || p.placement[static_cast<std::size_t>(st)].head;
  }
  if (head) {
    const llm::LlmSpec& model = *f.model;
    const double vocab_share = static_cast<double>(model.vocab) / f.shape.tp;
    const double logits = f.shape.tokens_per_cp_shard() * vocab_share * (1 + model.mtp_depth);
    const double loss = f.stack == workload::SoftwareStack::pytorch ? 8 * logits : 0;
    const double head_gradient =
        m.gradients_persist ? 0 : vocab_share * model.hidden * f.shape.precision.gradient_bytes;
    m.backward_transient = core::Bytes(std::max(loss, head_gradient));
  }
  if (f.optimizer == workload::OptimizerKernels::foreach) {
    m.optimizer_transient = core::Bytes(shard * f.shape.precision.moment_bytes);
  }
}

// The rank's activations chunk by chunk (each of its stages' micro-batch its own), and under
// full recomputation one layer's whole set besides.
struct RankActivations {
  workload::ActivationTimeline timeline;
  double recomputing = 0;
};

RankActivations rank_activations(const workload::StepProgram& p, const StepFacts& f, int rank) {
  std::vector<double> stage_bytes(p.placement.size(), 0.0);
  RankActivations out;
  for (const int st : p.schedule.stages_of(rank)) {
    const StageActivations a = stage_activations(p.placement[static_cast<std::size_t>(st)], f);
    stage_bytes[static_cast<std::size_t>(st)] = a.kept;
    out.recomputing = std::max(out.recomputing, a.recomputing);
  }
  out.timeline = workload::activation_timeline(p.schedule, rank, stage_bytes);
  return out;
}

// The rank's memory (memory_use), its activations given.
metrics::MemoryUse rank_memory(const workload::StepProgram& p, const StepFacts& f, int rank,
                               const RankActivations& a) {
  double params = 0;
  double shard = 0;
  double optimizer_shard = 0;  // ZeRO 0: every parameter's state on every replica
  double layers = 0;
  for (const int st : p.schedule.stages_of(rank)) {
    const double dense = p.stage_dense_params[static_cast<std::size_t>(st)];
    const double experts = p.stage_expert_params[static_cast<std::size_t>(st)];
    params += dense + experts;
    shard += dense / f.shape.gradient_replicas() + experts / f.shape.expert_replicas();
    optimizer_shard +=
        dense / f.shape.optimizer_shards() + experts / f.shape.expert_optimizer_shards();
    layers = std::max<double>(layers, p.placement[static_cast<std::size_t>(st)].layers());
  }
  metrics::MemoryUse m;
  // ZeRO-0 shards nothing, ZeRO-1 the optimizer state, ZeRO-2 the gradients too, ZeRO-3 the
  // parameters too (one layer's gathered copy aside).
  m.parameters = core::Bytes((f.shape.zero >= 3 ? shard : params) * workload::kParameterBytes);
  m.optimizer = core::Bytes(optimizer_shard * f.shape.precision.optimizer_state_bytes());
  m.gradients =
      core::Bytes((f.shape.zero >= 2 ? shard : params) * f.shape.precision.gradient_bytes);
  m.capacity = f.gpu.hbm_capacity;
  m.framework = core::Bytes(workload::kFrameworkBytes);
  m.ep_buffers = f.ep_buffers;
  m.peak_in_flight = workload::peak_in_flight(p.schedule).at(static_cast<std::size_t>(rank));
  // The rank's activations at their peak as its schedule allocates and frees them.
  m.activations = core::Bytes(a.timeline.peak + a.recomputing);
  transients(m, p, f, optimizer_shard, rank);
  return m;
}

// Each rank's memory (the first rank's the report's) and, chunk by chunk, beside its lanes.
void memory_lanes(metrics::RunResult& r, const workload::StepProgram& p, const StepFacts& f) {
  for (std::size_t rank = 0; rank < r.lanes.size(); ++rank) {
    const int k = static_cast<int>(rank);
    const RankActivations a = rank_activations(p, f, k);
    const metrics::MemoryUse m = rank_memory(p, f, k, a);
    if (rank == 0) {
      r.memory = m;
    }
    r.lanes[rank].memory = {.state_bytes = (m.resident() + m.framework + m.ep_buffers).value,
                            .activations_at_start = a.timeline.held,
                            .activations_at_end = a.timeline.after};
  }
}

}  // namespace

metrics::MemoryUse memory_use(const workload::StepProgram& p, const StepFacts& f, int rank) {
  return rank_memory(p, f, rank, rank_activations(p, f, rank));
}

// Tokens per day, and model FLOPs per GPU against the BF16 peak (causal and non-causal); HFU
// adds the recomputed FLOPs.
void throughput(metrics::RunResult& r, const StepFacts& f) {
  const double step = r.step_time.value;
  r.tokens_per_step = f.shape.sequences_per_step() * f.shape.seq_len;
  r.tokens_per_day = r.tokens_per_step / step * kSecondsPerDay;
  const auto a = llm::analyze(*f.model, f.shape.seq_len);
  const double per_gpu = r.tokens_per_step / step / f.shape.gpus();
  r.tflops_causal = a.training_flops_per_token.value * per_gpu / 1e12;
  r.tflops_noncausal = a.training_flops_per_token_noncausal.value * per_gpu / 1e12;
  r.mfu_causal = a.training_flops_per_token.value * per_gpu / f.gpu.bf16_peak.value;
  r.hfu_causal =
      (a.training_flops_per_token.value + recomputed_flops_per_token(a, f.shape.recompute)) *
      per_gpu / f.gpu.bf16_peak.value;
  r.mfu_noncausal = a.training_flops_per_token_noncausal.value * per_gpu / f.gpu.bf16_peak.value;
}

metrics::RunResult measure_step(const workload::StepProgram& p, const ReplayedStep& t,
                                const StepFacts& f) {
  metrics::RunResult r;
  for (const auto& tt : t.tasks) {
    r.step_time = std::max(r.step_time, tt.end);
  }
  const std::vector<RankActivity> ranks = rank_activity(p, t);
  r.lanes = pipeline_lanes(ranks);
  r.breakdown = breakdown(r.lanes.front(), r.step_time);
  throughput(r, f);
  exposed_communication(r, ranks.front(), r.lanes.front());
  overlapped_pairs(r, p, t, f);
  link_use(r, p, t);
  memory_lanes(r, p, f);  // the lanes are one per pipeline rank: the first's is the report's
  return r;
}

}  // namespace codesim::metrics
