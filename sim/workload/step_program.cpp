// Schedule chunks -> tasks per rank and stream, with the data dependencies between them.
#include "sim/workload/step_program.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

#include "models/cost/kernel_cost.hpp"
#include "models/llm/layer_ops.hpp"
#include "sim/workload/training_state.hpp"

namespace codesim::workload {
namespace {

// Compute times of one layer's pieces, with and without communication holding SMs.
struct LayerTimes {
  bool moe = false;
  std::map<PieceId, core::Seconds> alone;
  std::map<PieceId, core::Seconds> overlapped;
};

constexpr PieceId kComputePieces[] = {
    {PieceKind::attention, Pass::forward}, {PieceKind::attention, Pass::backward},
    {PieceKind::attention, Pass::weight},  {PieceKind::mlp, Pass::forward},
    {PieceKind::mlp, Pass::backward},      {PieceKind::mlp, Pass::weight},
};

// A layer's pieces in the order a pass runs them (spec §9): forward attn -> dispatch -> mlp ->
// combine; backward the reverse, its weight parts right after their input parts unless deferred.
constexpr PieceKind kForwardOrder[] = {PieceKind::attention, PieceKind::dispatch, PieceKind::mlp,
                                       PieceKind::combine};
constexpr PieceKind kBackwardOrder[] = {PieceKind::combine, PieceKind::mlp, PieceKind::dispatch,
                                        PieceKind::attention};

// An overlapped F&B pair creates its two layers' pieces in this order, so that each stream runs
// them in the profile's order (see the header): (forward?, index in the pass's order).
constexpr std::pair<bool, int> kPairOrder[] = {{true, 0},  {false, 0}, {true, 1}, {false, 1},
                                               {false, 2}, {true, 2},  {true, 3}, {false, 3}};

using Key = std::tuple<int, int, int>;  // direction, stage, micro-batch

Key key(const StageWork& w) {
  return {w.direction, w.stage, w.micro_batch};
}

// Where the tasks being created go: a rank, and the chunk of its schedule they belong to (-1 for
// the step's end: data-parallel synchronization and the optimizer).
struct Place {
  int rank = 0;
  int chunk = -1;
  ChunkKind kind = ChunkKind::forward;
};

// A chain of dependent tasks: each waits for the previous one (or, first, for `start`).
struct Chain {
  std::vector<int> start;
  int last = -1;
  std::vector<int> deps() const { return last >= 0 ? std::vector<int>{last} : start; }
};

// Parameters of `ops` on one GPU: dense ones (a TP group's share of the split weights),
// replicated over data parallelism, and routed experts' (this GPU's share under EP).
struct GpuParams {
  double dense = 0;
  double experts = 0;
};
GpuParams params_on_gpu(const StepSpec& s, const std::vector<llm::LayerOp>& ops) {
  GpuParams p;
  for (const auto& op : ops) {
    if (op.routed_expert()) {
      p.experts += op.params / std::max(1, s.ep);
    } else {
      p.dense += op.params / (tensor_split(op) == TensorSplit::none ? 1 : std::max(1, s.tp));
    }
  }
  return p;
}

// The parameters of the embedding and of the output head with the MTP modules, on one GPU.
struct BlockParams {
  GpuParams embedding;
  GpuParams head;
};
BlockParams block_params(const StepSpec& s) {
  BlockParams b;
  const llm::OpShape shape{.seq_len = s.tokens, .micro_batch = 1};
  for (const auto& block : llm::model_blocks(*s.model, shape)) {
    const bool head = block.kind == "head" || block.kind == "mtp";
    if (block.kind != "embedding" && !head) {
      continue;
    }
    const GpuParams g = params_on_gpu(s, block.ops);
    GpuParams& to = head ? b.head : b.embedding;
    to.dense += g.dense;
    to.experts += g.experts;
  }
  return b;
}

class Builder {
 public:
  Builder(const StepSpec& s, StepProgram& p) : s_(s), p_(p) {
    PieceContext c{.model = s.model,
                   .gpu = s.gpu,
                   .kernels = {.tokens = s.tokens / std::max(1, s.cp),
                               .seq_len = s.seq_len,
                               .fp8_gemm = s.fp8_gemm,
                               .ep = s.ep,
                               .tp = s.tp,
                               .sequence_parallel = s.sequence_parallel,
                               .expert_rows = s.busiest_expert_rows}};
    for (int l = 0; l < s.model->layers; ++l) {
      LayerTimes t;
      t.moe = s.model->is_moe_layer(l) && s.ep > 1;
      for (const PieceId piece : kComputePieces) {
        c.held_sms = 0;
        t.alone[piece] = piece_time(s.pieces, c, piece, l);
        c.held_sms = s.comm_sms;
        t.overlapped[piece] = piece_time(s.pieces, c, piece, l);
      }
      layers_.push_back(std::move(t));
    }
    for (const Pass pass : {Pass::forward, Pass::backward, Pass::weight}) {
      c.held_sms = 0;
      head_.alone[{PieceKind::head, pass}] = piece_time(s.pieces, c, {PieceKind::head, pass}, 0);
      c.held_sms = s.comm_sms;
      head_.overlapped[{PieceKind::head, pass}] =
          piece_time(s.pieces, c, {PieceKind::head, pass}, 0);
    }
    c.held_sms = 0;
    combine_b_overhead_ = piece_overhead(s.pieces, c, {PieceKind::combine, Pass::backward});
    last_.assign(static_cast<std::size_t>(s.pp) * kStepStreams, -1);
    const llm::OpShape shape{.seq_len = s.tokens, .micro_batch = 1};
    for (const auto& op : llm::attention_ops(*s.model, shape)) {
      if (op.op_class == llm::OpClass::attention) {
        kv_width_ = op.attention.kv_heads * (op.attention.d_qk + op.attention.d_v);
      }
    }
    for (int l = 0; l < s.model->layers; ++l) {
      layer_params_.push_back(params_on_gpu(s, llm::layer_ops(*s.model, l, shape)));
    }
    blocks_ = block_params(s);
  }

  core::Seconds layer_forward_time(int l) const {
    const LayerTimes& t = layers_[static_cast<std::size_t>(l)];
    return t.alone.at({PieceKind::attention, Pass::forward}) +
           t.alone.at({PieceKind::mlp, Pass::forward});
  }
  core::Seconds head_forward_time() const {
    return head_.alone.at({PieceKind::head, Pass::forward});
  }

  void chunks(int rank) {
    const auto& list = p_.schedule.per_rank[static_cast<std::size_t>(rank)];
    // Per stage, the last chunk that computes weight gradients: they are final after it.
    std::map<int, int> final_chunk;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const Chunk& ch = list[i];
      if (ch.kind == ChunkKind::backward || ch.kind == ChunkKind::weight) {
        final_chunk[ch.work.stage] = static_cast<int>(i);
      } else if (ch.kind == ChunkKind::forward_backward) {
        final_chunk[ch.backward.stage] = static_cast<int>(i);
      }
    }
    for (const auto& [stage, chunk] : final_chunk) {
      final_chunks_.insert({rank, chunk});
    }
    for (std::size_t i = 0; i < list.size(); ++i) {
      emit({rank, static_cast<int>(i), list[i].kind}, list[i]);
    }
  }

  // Pipeline dependencies can only be resolved once every rank's chunks exist.
  void link_pipeline() {
    for (const auto& [task, need] : pending_) {
      const auto& done = need.forward ? forward_sent_ : backward_sent_;
      const auto it = done.find(need.key);
      if (it == done.end()) {
        throw std::logic_error("a chunk waits for a pipeline send that never happens");
      }
      p_.tasks[static_cast<std::size_t>(task)].deps.push_back(it->second);
    }
  }

  // After the gradients' reduce-scatters (issued during the backward chunks): the optimizer on
  // this rank's shard, then (ZeRO-1, 2) the parameters all-gathered per stage.
  void data_parallel(int rank, const std::vector<int>& stages) {
    const Place at{rank};
    double dense = 0;
    double experts = 0;
    for (int st : stages) {
      dense += p_.stage_dense_params[static_cast<std::size_t>(st)];
      experts += p_.stage_expert_params[static_cast<std::size_t>(st)];
    }
    const std::vector<int> reduced = {last(rank, StepStream::compute),
                                      last(rank, StepStream::data_parallel)};
    const double shard = dense / s_.dp + experts / std::max(1, s_.dp / s_.ep);
    const int opt = compute_task(
        at, {PieceKind::optimizer},
        cost::predict({.kind = cost::KernelClass::optimizer,
                       .bytes = core::Bytes(shard * kOptimizerTrafficBytes)},
                      s_.gpu, s_.gpu.sms, s_.pieces.params.kernel)
            .time,
        reduced);
    for_each_synchronized(stages, [&](int st, bool of_experts) {
      if (s_.zero != 3) {
        dp_task(at, {PieceKind::dp_all_gather}, {opt},
                dp_ref(CommKind::dp_all_gather, st, of_experts));
      }
    });
  }

 private:
  struct Need {
    bool forward = true;
    Key key;
  };

  // Dense parameters synchronize over the dp replicas, expert parameters over the dp / ep that
  // hold the same experts.
  template <class F>
  void for_each_synchronized(const std::vector<int>& stages, F&& f) const {
    for (int st : stages) {
      if (s_.dp > 1) {
        f(st, false);
      }
      if (s_.dp / s_.ep > 1 && p_.stage_expert_params[static_cast<std::size_t>(st)] > 0) {
        f(st, true);
      }
    }
  }
  // A TP collective of the micro-batch's BF16 activations (or their gradients) over the rank's TP
  // group; the chain waits for it unless tp_overlap hides it under the GEMMs.
  void tp_collective(const Place& at, const StageWork& w, CommKind kind, Pass pass, Chain& c) {
    const PieceKind piece = kind == CommKind::tp_all_gather       ? PieceKind::tp_all_gather
                            : kind == CommKind::tp_reduce_scatter ? PieceKind::tp_reduce_scatter
                                                                  : PieceKind::tp_all_reduce;
    const int task = comm_task(
        at, {piece, pass}, c.deps(),
        CommRef{.kind = kind,
                .stage = w.stage,
                .bytes = core::Bytes(static_cast<double>(s_.tokens) / s_.cp * s_.model->hidden *
                                     kActivationBytes)});
    if (!s_.tp_overlap) {
      c.last = task;
    }
  }

  // Context parallelism: the keys and values of the whole sequence (each GPU of the TP group its
  // heads' share, BF16) gathered before attention's forward, their gradients reduce-scattered
  // after its backward; the chain waits for them.
  void cp_collective(const Place& at, const StageWork& w, CommKind kind, Pass pass, Chain& c) {
    const PieceKind piece =
        kind == CommKind::cp_all_gather ? PieceKind::cp_all_gather : PieceKind::cp_reduce_scatter;
    c.last = comm_task(at, {piece, pass}, c.deps(),
                       CommRef{.kind = kind,
                               .stage = w.stage,
                               .bytes = core::Bytes(static_cast<double>(s_.tokens) *
                                                    kv_width_ / s_.tp * kActivationBytes)});
  }

  // ZeRO-3: a layer's (or the head's, the embedding's) parameters (BF16) gathered over its
  // data-parallel replicas before it runs (on the communication stream, as soon as it is free:
  // prefetched as far as that stream's order allows); the chain's next computation waits for
  // them.
  void gather(const Place& at, const StageWork& w, const GpuParams& g, Pass pass, Chain& c) {
    if (s_.zero != 3) {
      return;
    }
    std::vector<int> ready;
    for_each_group(g, [&](double params, bool experts) {
      ready.push_back(comm_task(at, {PieceKind::dp_all_gather, pass}, {},
                                CommRef{.kind = CommKind::dp_all_gather,
                                        .stage = w.stage,
                                        .bytes = core::Bytes(params * kParameterBytes),
                                        .experts = experts}));
    });
    if (!ready.empty()) {
      std::vector<int> deps = c.deps();
      deps.insert(deps.end(), ready.begin(), ready.end());
      c.start = std::move(deps);
      c.last = -1;
    }
  }
  void gather_layer(const Place& at, const StageWork& w, int l, Pass pass, Chain& c) {
    gather(at, w, layer_params_[static_cast<std::size_t>(l)], pass, c);
  }

  // A bucket of gradients (a layer's, the head's, the embedding's) reduce-scattered on the
  // data-parallel stream once the computation so far has produced them: in the stage's last
  // chunk that computes them (ZeRO-1), in every one (ZeRO-2, 3).
  void scatter(const Place& at, const StageWork& w, const GpuParams& g) {
    if (s_.zero < 2 && final_chunks_.count({at.rank, at.chunk}) == 0) {
      return;
    }
    const int after = last(at.rank, StepStream::compute);
    for_each_group(g, [&](double params, bool experts) {
      dp_task(at, {PieceKind::dp_reduce_scatter, Pass::backward}, {after},
              CommRef{.kind = CommKind::dp_reduce_scatter,
                      .stage = w.stage,
                      .bytes = core::Bytes(params * kGradientBytes),
                      .experts = experts});
    });
  }
  void scatter_layer(const Place& at, const StageWork& w, int l) {
    scatter(at, w, layer_params_[static_cast<std::size_t>(l)]);
  }
  // The embedding's gradients, once the stage's backward has reached it.
  void scatter_embedding(const Place& at, const StageWork& w) {
    if (layers_of(w).embedding) {
      scatter(at, w, blocks_.embedding);
    }
  }

  // Dense parameters (synchronized over dp replicas) and routed experts' on this GPU (over dp /
  // ep), each when it has replicas to synchronize with.
  template <class F>
  void for_each_group(const GpuParams& p, F&& f) const {
    if (s_.dp > 1 && p.dense > 0) {
      f(p.dense, false);
    }
    if (s_.dp / s_.ep > 1 && p.experts > 0) {
      f(p.experts, true);
    }
  }

  CommRef dp_ref(CommKind kind, int stage, bool experts) const {
    const double params = experts ? p_.stage_expert_params[static_cast<std::size_t>(stage)]
                                  : p_.stage_dense_params[static_cast<std::size_t>(stage)];
    const double bytes = kind == CommKind::dp_reduce_scatter ? kGradientBytes : kParameterBytes;
    return CommRef{
        .kind = kind, .stage = stage, .bytes = core::Bytes(params * bytes), .experts = experts};
  }

  int last(int rank, StepStream stream) const {
    return last_[static_cast<std::size_t>(rank * kStepStreams + static_cast<int>(stream))];
  }

  int add(const Place& at, StepStream stream, core::Seconds duration, PieceId piece,
          const std::vector<int>& deps, std::optional<CommRef> comm) {
    StepTask t;
    t.id = static_cast<int>(p_.tasks.size());
    t.rank = at.rank;
    t.stream = stream;
    t.duration = duration;
    t.comm = std::move(comm);
    for (int d : deps) {
      if (d >= 0) {
        t.deps.push_back(d);
      }
    }
    t.piece = piece;
    t.chunk = at.chunk;
    t.chunk_kind = at.kind;
    last_[static_cast<std::size_t>(at.rank * kStepStreams + static_cast<int>(stream))] = t.id;
    p_.tasks.push_back(std::move(t));
    return p_.tasks.back().id;
  }
  int compute_task(const Place& at, PieceId piece, core::Seconds d, const std::vector<int>& deps) {
    return add(at, StepStream::compute, d, piece, deps, std::nullopt);
  }
  int comm_task(const Place& at, PieceId piece, const std::vector<int>& deps, CommRef ref,
                core::Seconds own = {}) {
    return add(at, StepStream::comm, own, piece, deps, ref);
  }
  int dp_task(const Place& at, PieceId piece, const std::vector<int>& deps, CommRef ref) {
    return add(at, StepStream::data_parallel, {}, piece, deps, ref);
  }

  const StageLayers& layers_of(const StageWork& w) const {
    return p_.placement[static_cast<std::size_t>(w.stage)];
  }

  // One piece of layer `l` in `pass` (forward or backward); `whole` runs a backward's weight
  // part right after its input part (else a W chunk does it later).
  void layer_piece(const Place& at, const StageWork& w, int l, PieceKind kind, Pass pass,
                   bool overlapped, bool whole, Chain& c) {
    const LayerTimes& t = layers_[static_cast<std::size_t>(l)];
    const auto& times = overlapped ? t.overlapped : t.alone;
    const bool backward = pass == Pass::backward;
    if (kind == PieceKind::dispatch || kind == PieceKind::combine) {
      if (t.moe) {
        const CommRef ref{
            .kind = kind == PieceKind::dispatch ? CommKind::ep_dispatch : CommKind::ep_combine,
            .stage = w.stage,
            .layer = l,
            .micro_batch = w.micro_batch,
            .direction = w.direction,
            .gradient = backward};
        const bool casts = kind == PieceKind::combine && backward;
        c.last = comm_task(at, {kind, pass}, c.deps(), ref,
                           casts ? combine_b_overhead_ : core::Seconds(0));
      }
      return;
    }
    if (backward && kind == PieceKind::mlp && s_.recompute == Recompute::full) {
      // The layer's forward again (its all-to-all not: the routed tokens are kept), then its
      // backward.
      c.last = compute_task(at, {PieceKind::recompute, Pass::forward},
                            times.at({PieceKind::attention, Pass::forward}) +
                                times.at({PieceKind::mlp, Pass::forward}),
                            c.deps());
    }
    // Routed experts are not split (expert parallelism spreads them); attention, dense FFNs and
    // shared experts are.
    const bool tensor_parallel =
        s_.tp > 1 && (kind == PieceKind::attention || !s_.model->is_moe_layer(l) ||
                      s_.model->moe->shared_experts > 0);
    if (tensor_parallel && s_.sequence_parallel) {
      tp_collective(at, w, CommKind::tp_all_gather, pass, c);
    }
    const bool context_parallel = s_.cp > 1 && kind == PieceKind::attention;
    if (context_parallel && !backward) {
      cp_collective(at, w, CommKind::cp_all_gather, pass, c);
    }
    c.last = compute_task(at, {kind, pass}, times.at({kind, pass}), c.deps());
    if (context_parallel && backward) {
      cp_collective(at, w, CommKind::cp_reduce_scatter, pass, c);
    }
    if (tensor_parallel) {
      tp_collective(at, w,
                    s_.sequence_parallel ? CommKind::tp_reduce_scatter : CommKind::tp_all_reduce,
                    pass, c);
    }
    if (backward && whole) {
      compute_task(at, {kind, Pass::weight}, times.at({kind, Pass::weight}), {c.last});
    }
  }

  // Waits for the activations (forward) or gradients (backward) from the neighbouring stage.
  Chain start_of(const Place& at, const StageWork& w, bool forward) {
    Chain c;
    const bool first = forward ? w.stage == 0 : w.stage == p_.schedule.stages - 1;
    if (!first) {
      const Need need{forward, forward ? Key{w.direction, w.stage - 1, w.micro_batch}
                                       : Key{w.direction, w.stage + 1, w.micro_batch}};
      // A placeholder task carries the cross-rank dependency, added by link_pipeline().
      const int wait =
          add(at, StepStream::compute, {},
              {PieceKind::recv, forward ? Pass::forward : Pass::backward}, {}, std::nullopt);
      pending_.emplace_back(wait, need);
      c.start = {wait};
    } else if (!forward) {
      c.start = {forward_done_.at(key(w))};  // the loss needs this stage's own forward
    }
    return c;
  }

  // Activations (forward) or their gradients (backward) to the neighbouring stage.
  int send(const Place& at, const StageWork& w, Chain& c, bool forward) {
    const int to_stage = forward ? w.stage + 1 : w.stage - 1;
    return comm_task(
        at, {PieceKind::send, forward ? Pass::forward : Pass::backward}, c.deps(),
        CommRef{.kind = CommKind::pp_send,
                .direction = w.direction,
                .from_rank = at.rank,
                .to_rank = p_.schedule.rank_of(w.direction, to_stage),
                .bytes = core::Bytes(s_.tokens * s_.model->hidden * kActivationBytes)});
  }

  // The output head and MTP modules' piece in `pass`, priced as the chunk runs it.
  core::Seconds head_time(Pass pass, bool overlapped) const {
    return (overlapped ? head_.overlapped : head_.alone).at({PieceKind::head, pass});
  }

  void end_forward(const Place& at, const StageWork& w, Chain& c, bool overlapped) {
    if (layers_of(w).head) {
      gather(at, w, blocks_.head, Pass::forward, c);
      // The vocabulary-parallel head needs every token of the micro-batch (its loss does not).
      if (s_.tp > 1 && s_.sequence_parallel) {
        tp_collective(at, w, CommKind::tp_all_gather, Pass::forward, c);
      }
      c.last = compute_task(at, {PieceKind::head, Pass::forward},
                            head_time(Pass::forward, overlapped), c.deps());
    }
    forward_done_[key(w)] = c.last;
    if (w.stage < p_.schedule.stages - 1) {
      forward_sent_[key(w)] = send(at, w, c, true);
    }
  }

  void begin_backward(const Place& at, const StageWork& w, Chain& c, bool whole, bool overlapped) {
    if (layers_of(w).head) {
      gather(at, w, blocks_.head, Pass::backward, c);
      // Its input gathered again for the weight gradient, the input gradient reduced.
      if (s_.tp > 1 && s_.sequence_parallel) {
        tp_collective(at, w, CommKind::tp_all_gather, Pass::backward, c);
      }
      c.last = compute_task(at, {PieceKind::head, Pass::backward},
                            head_time(Pass::backward, overlapped), c.deps());
      if (s_.tp > 1) {
        tp_collective(
            at, w, s_.sequence_parallel ? CommKind::tp_reduce_scatter : CommKind::tp_all_reduce,
            Pass::backward, c);
      }
      if (whole) {
        compute_task(at, {PieceKind::head, Pass::weight}, head_time(Pass::weight, overlapped),
                     {c.last});
        scatter(at, w, blocks_.head);
      }
    }
  }

  void end_backward(const Place& at, const StageWork& w, Chain& c) {
    if (w.stage > 0) {
      backward_sent_[key(w)] = send(at, w, c, false);
    }
  }

  void forward_chunk(const Place& at, const StageWork& w) {
    Chain c = start_of(at, w, true);
    const StageLayers& sl = layers_of(w);
    if (sl.embedding) {
      gather(at, w, blocks_.embedding, Pass::forward, c);
    }
    for (int l = sl.first_layer; l <= sl.last_layer; ++l) {
      gather_layer(at, w, l, Pass::forward, c);
      for (const PieceKind kind : kForwardOrder) {
        layer_piece(at, w, l, kind, Pass::forward, false, false, c);
      }
    }
    end_forward(at, w, c, false);
  }

  void backward_chunk(const Place& at, const StageWork& w, bool whole) {
    Chain c = start_of(at, w, false);
    begin_backward(at, w, c, whole, false);
    const StageLayers& sl = layers_of(w);
    for (int l = sl.last_layer; l >= sl.first_layer; --l) {
      gather_layer(at, w, l, Pass::backward, c);
      for (const PieceKind kind : kBackwardOrder) {
        layer_piece(at, w, l, kind, Pass::backward, false, whole, c);
      }
      if (whole) {
        scatter_layer(at, w, l);
      }
    }
    if (whole) {
      scatter_embedding(at, w);
    }
    end_backward(at, w, c);
  }

  void weight_chunk(const Place& at, const StageWork& w) {
    const StageLayers& sl = layers_of(w);
    if (sl.head) {
      compute_task(at, {PieceKind::head, Pass::weight}, head_time(Pass::weight, false), {});
      scatter(at, w, blocks_.head);
    }
    for (int l = sl.last_layer; l >= sl.first_layer; --l) {
      const LayerTimes& t = layers_[static_cast<std::size_t>(l)];
      for (const PieceKind kind : {PieceKind::mlp, PieceKind::attention}) {
        compute_task(at, {kind, Pass::weight}, t.alone.at({kind, Pass::weight}), {});
      }
      scatter_layer(at, w, l);
    }
    scatter_embedding(at, w);
  }

  // A forward and a backward layer interleaved, layer by layer (kPairOrder).
  void pair_chunk(const Place& at, const Chunk& ch) {
    Chain f = start_of(at, ch.work, true);
    Chain b = start_of(at, ch.backward, false);
    begin_backward(at, ch.backward, b, true, true);
    const StageLayers& fl = layers_of(ch.work);
    const StageLayers& bl = layers_of(ch.backward);
    const int n = std::max(fl.layers(), bl.layers());
    for (int i = 0; i < n; ++i) {
      const int lf = i < fl.layers() ? fl.first_layer + i : -1;
      const int lb = i < bl.layers() ? bl.last_layer - i : -1;
      if (lf >= 0) {
        gather_layer(at, ch.work, lf, Pass::forward, f);
      }
      if (lb >= 0) {
        gather_layer(at, ch.backward, lb, Pass::backward, b);
      }
      for (const auto& [forward, step] : kPairOrder) {
        const auto k = static_cast<std::size_t>(step);
        if (forward && lf >= 0) {
          layer_piece(at, ch.work, lf, kForwardOrder[k], Pass::forward, true, false, f);
        } else if (!forward && lb >= 0) {
          layer_piece(at, ch.backward, lb, kBackwardOrder[k], Pass::backward, true, true, b);
        }
      }
      if (lb >= 0) {
        scatter_layer(at, ch.backward, lb);
      }
    }
    scatter_embedding(at, ch.backward);
    end_forward(at, ch.work, f, true);
    end_backward(at, ch.backward, b);
  }

  void emit(const Place& at, const Chunk& ch) {
    switch (ch.kind) {
      case ChunkKind::forward:
        forward_chunk(at, ch.work);
        break;
      case ChunkKind::backward:
      case ChunkKind::backward_input:
        backward_chunk(at, ch.work, ch.kind == ChunkKind::backward);
        break;
      case ChunkKind::weight:
        weight_chunk(at, ch.work);
        break;
      case ChunkKind::forward_backward:
        pair_chunk(at, ch);
        break;
    }
  }

  const StepSpec& s_;
  StepProgram& p_;
  std::vector<LayerTimes> layers_;
  LayerTimes head_;  // the output head and MTP modules
  core::Seconds combine_b_overhead_;
  std::vector<int> last_;  // per rank and stream: the last task
  std::map<Key, int> forward_sent_;
  std::map<Key, int> backward_sent_;
  std::map<Key, int> forward_done_;
  std::vector<std::pair<int, Need>> pending_;
  std::vector<GpuParams> layer_params_;  // per layer
  BlockParams blocks_;
  std::set<std::pair<int, int>> final_chunks_;  // (rank, chunk): a stage's gradients final after
  double kv_width_ = 0;  // channels of one token's keys and values over all heads
};

// Dense (replicated) and routed-expert (per GPU) parameters of each stage.
void stage_params(const StepSpec& s, StepProgram& p) {
  const llm::OpShape shape{.seq_len = s.tokens, .micro_batch = 1};
  p.stage_dense_params.assign(p.placement.size(), 0.0);
  p.stage_expert_params.assign(p.placement.size(), 0.0);
  const BlockParams blocks = block_params(s);
  auto add = [&](std::size_t st, const GpuParams& g) {
    p.stage_dense_params[st] += g.dense;
    p.stage_expert_params[st] += g.experts;
  };
  for (std::size_t st = 0; st < p.placement.size(); ++st) {
    const StageLayers& sl = p.placement[st];
    for (int l = sl.first_layer; l <= sl.last_layer; ++l) {
      add(st, params_on_gpu(s, llm::layer_ops(*s.model, l, shape)));
    }
    if (sl.embedding) {
      add(st, blocks.embedding);
    }
    if (sl.head) {
      add(st, blocks.head);
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
    case CommKind::tp_all_gather:
      return "TP all-gather";
    case CommKind::tp_reduce_scatter:
      return "TP reduce-scatter";
    case CommKind::tp_all_reduce:
      return "TP all-reduce";
    case CommKind::cp_all_gather:
      return "CP all-gather";
    case CommKind::cp_reduce_scatter:
      return "CP reduce-scatter";
  }
  return "?";
}

StepProgram build_step_program(const StepSpec& s) {
  if (s.model == nullptr || s.tokens < 1 || s.pp < 1 || s.ep < 1 || s.dp < 1) {
    throw std::invalid_argument("a step needs a model, tokens, and pp, ep, dp of at least 1");
  }
  StepProgram p;
  p.schedule = make_schedule(s.method, s.pp, s.micro_batches, s.virtual_stages);
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
    op.name = piece_label(task.piece);
    if (task.comm) {
      op.kind = task.comm->kind == CommKind::pp_send ? OpKind::send : OpKind::collective;
      op.op_class = cost::KernelClass::communication;
      op.bytes = task.comm->bytes.value;
      op.peer = task.comm->to_rank;
    }
    op.deps = task.deps;
    op.tags.piece = op.name;
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
