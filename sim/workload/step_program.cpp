// Schedule chunks -> tasks per rank and stream, with the data dependencies between them.
#include "sim/workload/step_program.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>

#include "models/llm/layer_ops.hpp"

namespace codesim::workload {
namespace {

constexpr double kActivationBytes = 2;  // BF16 activations and activation gradients
constexpr double kGradientBytes = 4;    // FP32 gradients reduced across data parallelism
constexpr double kParamBytes = 2;       // BF16 parameters gathered after the optimizer
// AdamW per parameter: read FP32 master, FP32 gradient, BF16 m and v; write master, m, v and the
// BF16 parameter.
constexpr double kOptimizerBytesPerParam = 4 + 4 + 2 + 2 + 4 + 2 + 2 + 2;

bool is_routed_expert(const llm::LayerOp& op) {
  return op.name.rfind("experts_", 0) == 0;
}

// Compute times of one layer's pieces, with and without communication holding SMs.
struct LayerTimes {
  bool moe = false;
  std::map<std::string, core::Seconds> alone;
  std::map<std::string, core::Seconds> overlapped;
};

// Forward / input-backward / weight-backward time of the head and MTP modules (GEMMs at the
// BF16 peak, attention at its efficiencies; no other kernels measured for them).
struct BlockTimes {
  core::Seconds f, b, w;
};

BlockTimes block_times(const std::vector<llm::LayerOp>& ops, const StepSpec& s) {
  const TraceFit& fit = s.pieces.fit;
  BlockTimes t;
  for (const auto& op : ops) {
    if (!llm::counts_as_model_flops(op.op_class)) {
      continue;
    }
    const bool attention = op.op_class == llm::OpClass::attention;
    const bool expert = is_routed_expert(op);
    // Routed experts: the GPU computes tokens x top-k rows spread over ep GPUs, which the
    // per-token FLOPs already count as top-k active experts.
    (void)expert;
    const double peak = attention ? s.gpu.bf16_peak.value
                                  : (s.fp8_gemm && expert ? s.gpu.fp8_peak : s.gpu.bf16_peak).value;
    const double ef = attention ? fit.attention_forward_efficiency : fit.gemm_efficiency;
    const double eb = attention ? fit.attention_backward_efficiency : fit.gemm_efficiency;
    t.f += core::Seconds(op.forward.value / (peak * ef));
    t.b += core::Seconds(op.backward_input.value / (peak * eb));
    t.w += core::Seconds(op.backward_weight.value / (peak * eb));
  }
  return t;
}

using Key = std::tuple<int, int, int>;  // direction, stage, micro-batch

Key key(const StageWork& w) {
  return {w.direction, w.stage, w.micro_batch};
}

class Builder {
 public:
  explicit Builder(const StepSpec& s, StepProgram& p) : s_(s), p_(p) {
    const llm::OpShape shape{.seq_len = s.tokens, .micro_batch = 1, .causal = true};
    PieceContext c{.model = s.model, .gpu = s.gpu, .tokens = s.tokens, .fp8_gemm = s.fp8_gemm};
    for (int l = 0; l < s.model->layers; ++l) {
      LayerTimes t;
      t.moe = s.model->is_moe_layer(l) && s.ep > 1;
      for (const char* piece : {"attn(F)", "attn(B)", "attn(W)", "mlp(F)", "mlp(B)", "mlp(W)"}) {
        c.held_sms = 0;
        t.alone[piece] = piece_time(s.pieces, c, piece, l);
        c.held_sms = s.comm_sms;
        t.overlapped[piece] = piece_time(s.pieces, c, piece, l);
      }
      layers_.push_back(std::move(t));
    }
    c.held_sms = 0;
    combine_b_overhead_ = piece_overhead(s.pieces, c, "combine(B)");
    std::vector<llm::LayerOp> head_ops;
    for (const auto& block : llm::model_blocks(*s.model, shape)) {
      if (block.kind == "head" || block.kind == "mtp") {
        head_ops.insert(head_ops.end(), block.ops.begin(), block.ops.end());
      }
    }
    head_ = block_times(head_ops, s);
    ranks_ = s.pp;
    last_.assign(static_cast<std::size_t>(ranks_) * 2, -1);
  }

  core::Seconds layer_forward_time(int l) const {
    return layers_[static_cast<std::size_t>(l)].alone.at("attn(F)") +
           layers_[static_cast<std::size_t>(l)].alone.at("mlp(F)");
  }
  core::Seconds head_forward_time() const { return head_.f; }

  void chunks(int rank) {
    const auto& list = p_.schedule.per_rank[static_cast<std::size_t>(rank)];
    for (std::size_t i = 0; i < list.size(); ++i) {
      chunk_ = static_cast<int>(i);
      kind_ = list[i].kind;
      emit(rank, list[i]);
    }
  }

  // Pipeline dependencies can only be resolved once every rank's chunks exist.
  void link_pipeline() {
    for (const auto& [task, need] : pending_) {
      const auto it = need.forward ? forward_sent_.find(need.key) : backward_sent_.find(need.key);
      const auto& done = need.forward ? forward_sent_ : backward_sent_;
      if (it == done.end()) {
        throw std::logic_error("a chunk waits for a pipeline send that never happens");
      }
      p_.tasks[static_cast<std::size_t>(task)].deps.push_back(it->second);
    }
  }

  void data_parallel(int rank, const std::vector<int>& stages) {
    chunk_ = -1;
    double dense = 0;
    double experts = 0;
    for (int st : stages) {
      dense += p_.stage_dense_params[static_cast<std::size_t>(st)];
      experts += p_.stage_expert_params[static_cast<std::size_t>(st)];
    }
    const int compute_last = last(rank, StepStream::compute);
    std::vector<int> reduced;
    for (int st : stages) {
      for (const bool of_experts : {false, true}) {
        if (synchronized(st, of_experts)) {
          reduced.push_back(comm_task(rank, "dp reduce-scatter", {compute_last},
                                      dp_ref(CommKind::dp_reduce_scatter, st, of_experts)));
        }
      }
    }
    // ZeRO-1: each rank updates its shard of the optimizer state.
    const double shard = dense / s_.dp + experts / std::max(1, s_.dp / s_.ep);
    const int opt = compute_task(
        rank, "optimizer",
        core::Seconds(shard * kOptimizerBytesPerParam / s_.gpu.hbm_bandwidth.value), reduced);
    for (int st : stages) {
      for (const bool of_experts : {false, true}) {
        if (synchronized(st, of_experts)) {
          comm_task(rank, "dp all-gather", {opt}, dp_ref(CommKind::dp_all_gather, st, of_experts));
        }
      }
    }
  }

 private:
  struct Need {
    bool forward = true;
    Key key;
  };

  // Dense parameters synchronize over the dp replicas, expert parameters over the dp / ep that
  // hold the same experts.
  bool synchronized(int stage, bool experts) const {
    return experts
               ? s_.dp / s_.ep > 1 && p_.stage_expert_params[static_cast<std::size_t>(stage)] > 0
               : s_.dp > 1;
  }
  CommRef dp_ref(CommKind kind, int stage, bool experts) const {
    const double params = experts ? p_.stage_expert_params[static_cast<std::size_t>(stage)]
                                  : p_.stage_dense_params[static_cast<std::size_t>(stage)];
    const double bytes = kind == CommKind::dp_reduce_scatter ? kGradientBytes : kParamBytes;
    return CommRef{
        .kind = kind, .stage = stage, .bytes = core::Bytes(params * bytes), .experts = experts};
  }

  int last(int rank, StepStream stream) const {
    return last_[static_cast<std::size_t>(rank * 2 + static_cast<int>(stream))];
  }

  int add(int rank, StepStream stream, core::Seconds duration, const std::string& piece,
          std::vector<int> deps, std::optional<CommRef> comm) {
    StepTask t;
    t.id = static_cast<int>(p_.tasks.size());
    t.rank = rank;
    t.stream = stream;
    t.duration = duration;
    t.comm = std::move(comm);
    for (int d : deps) {
      if (d >= 0) {
        t.deps.push_back(d);
      }
    }
    t.piece = piece;
    t.chunk = chunk_;
    t.chunk_kind = kind_;
    p_.tasks.push_back(std::move(t));
    last_[static_cast<std::size_t>(rank * 2 + static_cast<int>(stream))] = p_.tasks.back().id;
    return p_.tasks.back().id;
  }
  int compute_task(int rank, const std::string& piece, core::Seconds d, std::vector<int> deps) {
    return add(rank, StepStream::compute, d, piece, std::move(deps), std::nullopt);
  }
  int comm_task(int rank, const std::string& piece, std::vector<int> deps, CommRef ref,
                core::Seconds own = {}) {
    return add(rank, StepStream::comm, own, piece, std::move(deps), ref);
  }

  const StageLayers& layers_of(const StageWork& w) const {
    return p_.placement[static_cast<std::size_t>(w.stage)];
  }
  CommRef ep(CommKind kind, const StageWork& w, int layer, bool gradient) const {
    return CommRef{.kind = kind,
                   .stage = w.stage,
                   .layer = layer,
                   .micro_batch = w.micro_batch,
                   .direction = w.direction,
                   .gradient = gradient};
  }

  // A chain of dependent tasks: each waits for the previous one (or, first, for `start`).
  struct Chain {
    std::vector<int> start;
    int last = -1;
    std::vector<int> deps() const { return last >= 0 ? std::vector<int>{last} : start; }
  };

  // One layer's forward pieces, steps 1-4 (step: 1 attn, 2 dispatch, 3 mlp, 4 combine).
  void forward_step(int rank, const StageWork& w, int l, int step, bool overlapped, Chain& c) {
    const LayerTimes& t = layers_[static_cast<std::size_t>(l)];
    const auto& times = overlapped ? t.overlapped : t.alone;
    switch (step) {
      case 1:
        c.last = compute_task(rank, "attn(F)", times.at("attn(F)"), c.deps());
        break;
      case 2:
        if (t.moe) {
          c.last = comm_task(rank, "dispatch(F)", c.deps(), ep(CommKind::ep_dispatch, w, l, false));
        }
        break;
      case 3:
        c.last = compute_task(rank, "mlp(F)", times.at("mlp(F)"), c.deps());
        break;
      case 4:
        if (t.moe) {
          c.last = comm_task(rank, "combine(F)", c.deps(), ep(CommKind::ep_combine, w, l, false));
        }
        break;
    }
  }

  // One layer's backward pieces, steps 1-4 (1 combine, 2 mlp (+W), 3 dispatch, 4 attn (+W)).
  void backward_step(int rank, const StageWork& w, int l, int step, bool overlapped, bool whole,
                     Chain& c) {
    const LayerTimes& t = layers_[static_cast<std::size_t>(l)];
    const auto& times = overlapped ? t.overlapped : t.alone;
    switch (step) {
      case 1:
        if (t.moe) {
          c.last = comm_task(rank, "combine(B)", c.deps(), ep(CommKind::ep_combine, w, l, true),
                             combine_b_overhead_);
        }
        break;
      case 2: {
        c.last = compute_task(rank, "mlp(B)", times.at("mlp(B)"), c.deps());
        if (whole) {
          compute_task(rank, "mlp(W)", times.at("mlp(W)"), {c.last});
        }
        break;
      }
      case 3:
        if (t.moe) {
          c.last = comm_task(rank, "dispatch(B)", c.deps(), ep(CommKind::ep_dispatch, w, l, true));
        }
        break;
      case 4:
        c.last = compute_task(rank, "attn(B)", times.at("attn(B)"), c.deps());
        if (whole) {
          compute_task(rank, "attn(W)", times.at("attn(W)"), {c.last});
        }
        break;
    }
  }

  // Waits for the activations (forward) or gradients (backward) from the neighbouring stage.
  Chain start_of(int rank, const StageWork& w, bool forward) {
    Chain c;
    const int stages = p_.schedule.stages;
    const bool first = forward ? w.stage == 0 : w.stage == stages - 1;
    if (!first) {
      Need need{forward, forward ? Key{w.direction, w.stage - 1, w.micro_batch}
                                 : Key{w.direction, w.stage + 1, w.micro_batch}};
      // A placeholder task carries the cross-rank dependency, added by link_pipeline().
      const int wait =
          add(rank, StepStream::compute, {}, forward ? "recv(F)" : "recv(B)", {}, std::nullopt);
      pending_.emplace_back(wait, need);
      c.start = {wait};
    } else if (!forward) {
      c.start = {forward_done_.at(key(w))};  // the loss needs this stage's own forward
    }
    return c;
  }

  void end_forward(int rank, const StageWork& w, Chain& c, bool overlapped) {
    if (layers_of(w).head) {
      c.last = compute_task(rank, "head(F)", head_.f, c.deps());
    }
    forward_done_[key(w)] = c.last;
    if (w.stage < p_.schedule.stages - 1) {
      forward_sent_[key(w)] =
          comm_task(rank, "send(F)", c.deps(),
                    CommRef{.kind = CommKind::pp_send,
                            .direction = w.direction,
                            .from_rank = rank,
                            .to_rank = p_.schedule.rank_of(w.direction, w.stage + 1),
                            .bytes = core::Bytes(s_.tokens * s_.model->hidden * kActivationBytes)});
    }
    (void)overlapped;
  }

  void begin_backward(int rank, const StageWork& w, Chain& c, bool whole) {
    if (layers_of(w).head) {
      c.last = compute_task(rank, "head(B)", head_.b, c.deps());
      if (whole) {
        compute_task(rank, "head(W)", head_.w, {c.last});
      }
    }
  }

  void end_backward(int rank, const StageWork& w, Chain& c) {
    if (w.stage > 0) {
      backward_sent_[key(w)] =
          comm_task(rank, "send(B)", c.deps(),
                    CommRef{.kind = CommKind::pp_send,
                            .direction = w.direction,
                            .from_rank = rank,
                            .to_rank = p_.schedule.rank_of(w.direction, w.stage - 1),
                            .bytes = core::Bytes(s_.tokens * s_.model->hidden * kActivationBytes)});
    }
  }

  void emit(int rank, const Chunk& ch) {
    switch (ch.kind) {
      case ChunkKind::forward: {
        Chain c = start_of(rank, ch.work, true);
        const StageLayers& sl = layers_of(ch.work);
        for (int l = sl.first_layer; l <= sl.last_layer; ++l) {
          for (int step = 1; step <= 4; ++step) {
            forward_step(rank, ch.work, l, step, false, c);
          }
        }
        end_forward(rank, ch.work, c, false);
        break;
      }
      case ChunkKind::backward:
      case ChunkKind::backward_input: {
        const bool whole = ch.kind == ChunkKind::backward;
        Chain c = start_of(rank, ch.work, false);
        begin_backward(rank, ch.work, c, whole);
        const StageLayers& sl = layers_of(ch.work);
        for (int l = sl.last_layer; l >= sl.first_layer; --l) {
          for (int step = 1; step <= 4; ++step) {
            backward_step(rank, ch.work, l, step, false, whole, c);
          }
        }
        end_backward(rank, ch.work, c);
        break;
      }
      case ChunkKind::weight: {
        const StageLayers& sl = layers_of(ch.work);
        if (sl.head) {
          compute_task(rank, "head(W)", head_.w, {});
        }
        for (int l = sl.last_layer; l >= sl.first_layer; --l) {
          const LayerTimes& t = layers_[static_cast<std::size_t>(l)];
          compute_task(rank, "mlp(W)", t.alone.at("mlp(W)"), {});
          compute_task(rank, "attn(W)", t.alone.at("attn(W)"), {});
        }
        break;
      }
      case ChunkKind::forward_backward: {
        Chain f = start_of(rank, ch.work, true);
        Chain b = start_of(rank, ch.backward, false);
        begin_backward(rank, ch.backward, b, true);
        const StageLayers& fl = layers_of(ch.work);
        const StageLayers& bl = layers_of(ch.backward);
        const int n = std::max(fl.layers(), bl.layers());
        for (int i = 0; i < n; ++i) {
          const int lf = i < fl.layers() ? fl.first_layer + i : -1;
          const int lb = i < bl.layers() ? bl.last_layer - i : -1;
          // Creation order keeps each stream in the profile's order (see the header).
          const std::pair<bool, int> order[] = {{true, 1},  {false, 1}, {true, 2}, {false, 2},
                                                {false, 3}, {true, 3},  {true, 4}, {false, 4}};
          for (const auto& [forward, step] : order) {
            if (forward && lf >= 0) {
              forward_step(rank, ch.work, lf, step, true, f);
            } else if (!forward && lb >= 0) {
              backward_step(rank, ch.backward, lb, step, true, true, b);
            }
          }
        }
        end_forward(rank, ch.work, f, true);
        end_backward(rank, ch.backward, b);
        break;
      }
    }
  }

  const StepSpec& s_;
  StepProgram& p_;
  std::vector<LayerTimes> layers_;
  BlockTimes head_;
  core::Seconds combine_b_overhead_;
  int ranks_ = 0;
  std::vector<int> last_;  // per rank and stream: the last task
  int chunk_ = -1;
  ChunkKind kind_ = ChunkKind::forward;
  std::map<Key, int> forward_sent_;
  std::map<Key, int> backward_sent_;
  std::map<Key, int> forward_done_;
  std::vector<std::pair<int, Need>> pending_;
};

// Dense (replicated) and routed-expert (per GPU) parameters of each stage.
void stage_params(const StepSpec& s, StepProgram& p) {
  const llm::OpShape shape{.seq_len = s.tokens, .micro_batch = 1};
  p.stage_dense_params.assign(p.placement.size(), 0.0);
  p.stage_expert_params.assign(p.placement.size(), 0.0);
  auto add_ops = [&](std::size_t st, const std::vector<llm::LayerOp>& ops) {
    for (const auto& op : ops) {
      if (is_routed_expert(op)) {
        p.stage_expert_params[st] += op.params / std::max(1, s.ep);
      } else {
        p.stage_dense_params[st] += op.params;
      }
    }
  };
  for (std::size_t st = 0; st < p.placement.size(); ++st) {
    const StageLayers& sl = p.placement[st];
    for (int l = sl.first_layer; l <= sl.last_layer; ++l) {
      add_ops(st, llm::layer_ops(*s.model, l, shape));
    }
    for (const auto& block : llm::model_blocks(*s.model, shape)) {
      if ((block.kind == "embedding" && sl.embedding) ||
          ((block.kind == "head" || block.kind == "mtp") && sl.head)) {
        add_ops(st, block.ops);
      }
    }
  }
}

}  // namespace

std::string_view comm_kind_name(CommKind k) {
  switch (k) {
    case CommKind::ep_dispatch:
      return "EP dispatch";
    case CommKind::ep_combine:
      return "EP combine";
    case CommKind::pp_send:
      return "PP send";
    case CommKind::dp_reduce_scatter:
      return "DP reduce-scatter";
    case CommKind::dp_all_gather:
      return "DP all-gather";
  }
  return "?";
}

StepProgram build_step_program(const StepSpec& s) {
  if (s.model == nullptr || s.tokens < 1 || s.pp < 1 || s.ep < 1 || s.dp < 1) {
    throw std::invalid_argument("a step needs a model, tokens, and pp, ep, dp of at least 1");
  }
  StepProgram p;
  p.schedule = make_schedule(s.method, s.pp, s.micro_batches);
  Builder b(s, p);
  StageCosts costs;
  for (int l = 0; l < s.model->layers; ++l) {
    costs.layer.push_back(b.layer_forward_time(l).value);
  }
  costs.head = b.head_forward_time().value;
  std::vector<std::vector<int>> stages_of;
  for (int r = 0; r < s.pp; ++r) {
    stages_of.push_back(p.schedule.stages_of(r));
  }
  p.placement = place_layers(costs, p.schedule.stages, stages_of);
  stage_params(s, p);
  for (int r = 0; r < s.pp; ++r) {
    b.chunks(r);
  }
  b.link_pipeline();
  for (int r = 0; r < s.pp; ++r) {
    b.data_parallel(r, p.schedule.stages_of(r));
  }
  return p;
}

StepTrace to_step_trace(const StepProgram& p) {
  StepTrace t;
  t.source = "codesim step synthesis (" + std::string(schedule_method_name(p.schedule.method)) +
             ", " + std::to_string(p.schedule.ranks) + " ranks, " +
             std::to_string(p.schedule.micro_batches) + " micro-batches)";
  t.ops.reserve(p.tasks.size());
  for (const auto& task : p.tasks) {
    Op op;
    op.id = task.id;
    op.rank = task.rank;
    op.stream = static_cast<int>(task.stream);
    op.name = task.piece;
    if (task.comm) {
      op.kind = task.comm->kind == CommKind::pp_send ? OpKind::send : OpKind::collective;
      op.op_class = cost::KernelClass::communication;
      op.bytes = task.comm->bytes.value;
      op.peer = task.comm->to_rank;
    }
    op.deps = task.deps;
    op.tags.piece = task.piece;
    op.tags.chunk = task.chunk;
    if (task.comm) {
      op.tags.micro_batch = task.comm->micro_batch;
      op.tags.layer = task.comm->layer;
    }
    t.ops.push_back(std::move(op));
  }
  return t;
}

}  // namespace codesim::workload
