// One pipeline rank's chunks -> tasks per stream, with the dependencies among them.
#include "sim/workload/rank_program.hpp"

#include <algorithm>

#include "sim/workload/rank_tasks.hpp"
#include "sim/workload/step_program.hpp"
#include "sim/workload/training_state.hpp"

namespace codesim::workload {
namespace {

// A layer's pieces in the order a pass runs them: forward attn -> dispatch -> mlp -> combine;
// backward the reverse, its weight parts right after their input parts unless deferred.
constexpr PieceKind kForwardOrder[] = {PieceKind::attention, PieceKind::dispatch, PieceKind::mlp,
                                       PieceKind::combine};
constexpr PieceKind kBackwardOrder[] = {PieceKind::combine, PieceKind::mlp, PieceKind::dispatch,
                                        PieceKind::attention};

// An overlapped F&B pair creates its two layers' pieces in this order, so that each stream runs
// them in the profile's order (step_program.hpp): (forward?, index in the pass's order).
constexpr std::pair<bool, int> kPairOrder[] = {{true, 0},  {false, 0}, {true, 1}, {false, 1},
                                               {false, 2}, {true, 2},  {true, 3}, {false, 3}};

StageKey key(const StageWork& w) {
  return {w.direction, w.stage, w.micro_batch};
}

// The rank's chunks laid out as computation, layer piece by layer piece, over RankTasks.
class RankProgramBuilder : RankTasks {
 public:
  RankProgramBuilder(const StepPlan& plan, int rank) : RankTasks(plan, rank) {}

  RankProgram build() && {
    const auto& list = p_.schedule.per_rank[static_cast<std::size_t>(out_.rank)];
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
      final_chunks_.insert(chunk);
    }
    for (std::size_t i = 0; i < list.size(); ++i) {
      emit({static_cast<int>(i), list[i].kind}, list[i]);
    }
    return std::move(out_);
  }

 private:
  // One piece of layer `l` in `pass` (forward or backward); `whole` runs a backward's weight
  // part right after its input part (else a W chunk does it later).
  void layer_piece(const Place& at, const StageWork& w, int l, PieceKind kind, Pass pass,
                   bool overlapped, bool whole, Chain& c) {
    const LayerTimes& t = p_.costs.layers[static_cast<std::size_t>(l)];
    const auto& times = t.times(overlapped);
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
                           casts ? p_.costs.combine_b_overhead : core::Seconds(0));
      }
      return;
    }
    if (backward && kind == PieceKind::mlp && sh_.recompute == Recompute::full) {
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
        sh_.tp > 1 && (kind == PieceKind::attention || !s_.model->is_moe_layer(l) ||
                       s_.model->moe->shared_experts > 0);
    if (tensor_parallel && sh_.sequence_parallel) {
      tp_collective(at, w, CommKind::tp_all_gather, pass, c);
    }
    const bool context_parallel = sh_.cp > 1 && kind == PieceKind::attention;
    if (context_parallel && !backward) {
      cp_collective(at, w, CommKind::cp_all_gather, pass, c);
    }
    c.last = compute_task(at, {kind, pass}, times.at({kind, pass}), c.deps());
    if (context_parallel && backward) {
      cp_collective(at, w, CommKind::cp_reduce_scatter, pass, c);
    }
    if (tensor_parallel) {
      tp_collective(at, w,
                    sh_.sequence_parallel ? CommKind::tp_reduce_scatter : CommKind::tp_all_reduce,
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
      const StageKey from = forward ? StageKey{w.direction, w.stage - 1, w.micro_batch}
                                    : StageKey{w.direction, w.stage + 1, w.micro_batch};
      // A placeholder task carries the cross-rank dependency, added by link_pipeline().
      const int wait =
          add(at, StepStream::compute, {},
              {PieceKind::recv, forward ? Pass::forward : Pass::backward}, {}, std::nullopt);
      out_.waits.push_back({wait, forward, from});
      c.start = {wait};
    } else if (!forward) {
      c.start = {forward_done_.at(key(w))};  // the loss needs this stage's own forward
    }
    return c;
  }

  // The output head and MTP modules' piece in `pass`, and the token embedding's, priced as the
  // chunk runs them (an overlapped pair's communication holds SMs).
  core::Seconds head_time(Pass pass, bool overlapped) const {
    return p_.costs.head.times(overlapped).at({PieceKind::head, pass});
  }
  core::Seconds embedding_time(Pass pass, bool overlapped) const {
    return p_.costs.embedding.times(overlapped).at({PieceKind::embedding, pass});
  }

  // MTP modules whose transformer layer routes its tokens to experts over the EP group: each
  // module's layer is the last layer's kind (layer_ops.cpp), and its dispatch and combine are
  // the stage's all-to-alls like any MoE layer's.
  int routed_mtp_modules() const {
    return p_.costs.layers.empty() || !p_.costs.layers.back().moe ? 0 : s_.model->mtp_depth;
  }

  // The head piece less its MTP layers' attention and mlp pieces (the heads, norms and the MTP
  // projections), which the chunk runs before those layers.
  core::Seconds head_rest(Pass pass, bool overlapped) const {
    const auto& layer = p_.costs.layers.back().times(overlapped);
    const core::Seconds mtp =
        (layer.at({PieceKind::attention, pass}) + layer.at({PieceKind::mlp, pass})) *
        static_cast<double>(routed_mtp_modules());
    return std::max(core::Seconds(0), head_time(pass, overlapped) - mtp);
  }

  // One MTP module's layer in `pass` (forward or input backward) in the pieces' order, its
  // all-to-alls included; its weight gradients stay in the head's W piece.
  void mtp_piece(const Place& at, const StageWork& w, PieceKind kind, Pass pass, bool overlapped,
                 Chain& c) {
    layer_piece(at, w, s_.model->layers - 1, kind, pass, overlapped, false, c);
  }

  void mtp_layers(const Place& at, const StageWork& w, Pass pass, Chain& c) {
    for (int i = 0; i < routed_mtp_modules(); ++i) {
      for (const PieceKind kind : pass == Pass::forward ? kForwardOrder : kBackwardOrder) {
        mtp_piece(at, w, kind, pass, false, c);
      }
    }
  }

  // The token embedding's lookup before the first layer; a vocabulary-parallel TP group sums its
  // GPUs' partial rows (reduce-scattered by tokens with sequence parallelism).
  void forward_embedding(const Place& at, const StageWork& w, Chain& c, bool overlapped) {
    gather(at, w, p_.params.embedding, Pass::forward, c);
    c.last = compute_task(at, {PieceKind::embedding, Pass::forward},
                          embedding_time(Pass::forward, overlapped), c.deps());
    if (sh_.tp > 1) {
      tp_collective(at, w,
                    sh_.sequence_parallel ? CommKind::tp_reduce_scatter : CommKind::tp_all_reduce,
                    Pass::forward, c);
    }
  }

  // The embedding table's gradient after the first layer's backward (every token's gradient
  // gathered over the TP group first with sequence parallelism), then its reduction.
  void embedding_weight(const Place& at, const StageWork& w, Chain c, bool overlapped) {
    if (!layers_of(w).embedding) {
      return;
    }
    if (sh_.tp > 1 && sh_.sequence_parallel) {
      tp_collective(at, w, CommKind::tp_all_gather, Pass::weight, c);
    }
    compute_task(at, {PieceKind::embedding, Pass::weight},
                 embedding_time(Pass::weight, overlapped), c.deps());
    scatter_embedding(at, w);
  }

  // The output head, and the MTP modules' projections, norms and head, after the last layer
  // (the MTP modules' layers follow it).
  void forward_head(const Place& at, const StageWork& w, Chain& c, bool overlapped) {
    gather(at, w, p_.params.head, Pass::forward, c);
    // The vocabulary-parallel head needs every token of the micro-batch (its loss does not).
    if (sh_.tp > 1 && sh_.sequence_parallel) {
      tp_collective(at, w, CommKind::tp_all_gather, Pass::forward, c);
    }
    c.last = compute_task(at, {PieceKind::head, Pass::forward},
                          head_rest(Pass::forward, overlapped), c.deps());
  }

  void end_forward(const Place& at, const StageWork& w, Chain& c) {
    if (c.last >= 0 && out_.tasks[static_cast<std::size_t>(c.last)].stream != StepStream::compute) {
      // The chunk's last combine is summed into the residual stream by a compute-stream kernel,
      // and CUDA stream order holds every later kernel of that stream behind it: the compute
      // stream waits for the combine before the next chunk (a zero-length wait, as a recv).
      c.last = compute_task(at, {PieceKind::combine, Pass::forward}, {}, c.deps());
    }
    forward_done_[key(w)] = c.last;
    if (w.stage < p_.schedule.stages - 1) {
      out_.forward_sent[key(w)] = send(at, w, c, true);
    }
  }

  // The head's input gradient (the MTP modules' layers follow it), and with `whole` its weight
  // gradient, the MTP modules' included.
  void backward_head(const Place& at, const StageWork& w, Chain& c, bool whole, bool overlapped) {
    gather(at, w, p_.params.head, Pass::backward, c);
    // Its input gathered again for the weight gradient, the input gradient reduced.
    if (sh_.tp > 1 && sh_.sequence_parallel) {
      tp_collective(at, w, CommKind::tp_all_gather, Pass::backward, c);
    }
    c.last = compute_task(at, {PieceKind::head, Pass::backward},
                          head_rest(Pass::backward, overlapped), c.deps());
    if (sh_.tp > 1) {
      tp_collective(at, w,
                    sh_.sequence_parallel ? CommKind::tp_reduce_scatter : CommKind::tp_all_reduce,
                    Pass::backward, c);
    }
    if (whole) {
      compute_task(at, {PieceKind::head, Pass::weight}, head_time(Pass::weight, overlapped),
                   {c.last});
      scatter(at, w, p_.params.head);
    }
  }

  void end_backward(const Place& at, const StageWork& w, Chain& c) {
    if (w.stage > 0) {
      out_.backward_sent[key(w)] = send(at, w, c, false);
    }
  }

  void forward_chunk(const Place& at, const StageWork& w) {
    Chain c = start_of(at, w, true);
    const StageLayers& sl = layers_of(w);
    if (sl.embedding) {
      forward_embedding(at, w, c, false);
    }
    for (int l = sl.first_layer; l <= sl.last_layer; ++l) {
      gather_layer(at, w, l, Pass::forward, c);
      for (const PieceKind kind : kForwardOrder) {
        layer_piece(at, w, l, kind, Pass::forward, false, false, c);
      }
    }
    if (sl.head) {
      forward_head(at, w, c, false);
      mtp_layers(at, w, Pass::forward, c);
    }
    end_forward(at, w, c);
  }

  void backward_chunk(const Place& at, const StageWork& w, bool whole) {
    Chain c = start_of(at, w, false);
    const StageLayers& sl = layers_of(w);
    if (sl.head) {
      backward_head(at, w, c, whole, false);
      mtp_layers(at, w, Pass::backward, c);
    }
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
      embedding_weight(at, w, c, false);
    }
    end_backward(at, w, c);
  }

  void weight_chunk(const Place& at, const StageWork& w) {
    const StageLayers& sl = layers_of(w);
    if (sl.head) {
      compute_task(at, {PieceKind::head, Pass::weight}, head_time(Pass::weight, false), {});
      scatter(at, w, p_.params.head);
    }
    for (int l = sl.last_layer; l >= sl.first_layer; --l) {
      const LayerTimes& t = p_.costs.layers[static_cast<std::size_t>(l)];
      for (const PieceKind kind : {PieceKind::mlp, PieceKind::attention}) {
        compute_task(at, {kind, Pass::weight}, t.alone.at({kind, Pass::weight}), {});
      }
      scatter_layer(at, w, l);
    }
    embedding_weight(at, w, {}, false);
  }

  // A forward and a backward layer interleaved, layer by layer (kPairOrder); the MTP modules'
  // layers are the forward's last layers (after the head) and the backward's first.
  void pair_chunk(const Place& at, const Chunk& ch) {
    Chain f = start_of(at, ch.work, true);
    Chain b = start_of(at, ch.backward, false);
    const StageLayers& fl = layers_of(ch.work);
    const StageLayers& bl = layers_of(ch.backward);
    const int mtp_f = fl.head ? routed_mtp_modules() : 0;
    const int mtp_b = bl.head ? routed_mtp_modules() : 0;
    if (fl.embedding) {
      forward_embedding(at, ch.work, f, true);
    }
    if (bl.head) {
      backward_head(at, ch.backward, b, true, true);
    }
    const int n = std::max(fl.layers() + mtp_f, bl.layers() + mtp_b);
    for (int i = 0; i < n; ++i) {
      // Forward slot: a layer, or past them an MTP layer; backward slot: the other way round.
      const bool f_mtp = i >= fl.layers() && i < fl.layers() + mtp_f;
      const int lf = i < fl.layers() ? fl.first_layer + i : -1;
      const bool b_mtp = i < mtp_b;
      const int lb = !b_mtp && i - mtp_b < bl.layers() ? bl.last_layer - (i - mtp_b) : -1;
      if (f_mtp && i == fl.layers()) {
        forward_head(at, ch.work, f, true);
      }
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
        } else if (forward && f_mtp) {
          mtp_piece(at, ch.work, kForwardOrder[k], Pass::forward, true, f);
        } else if (!forward && lb >= 0) {
          layer_piece(at, ch.backward, lb, kBackwardOrder[k], Pass::backward, true, true, b);
        } else if (!forward && b_mtp) {
          mtp_piece(at, ch.backward, kBackwardOrder[k], Pass::backward, true, b);
        }
      }
      if (lb >= 0) {
        scatter_layer(at, ch.backward, lb);
      }
    }
    if (fl.head && mtp_f == 0) {
      forward_head(at, ch.work, f, true);
    }
    embedding_weight(at, ch.backward, b, true);
    end_forward(at, ch.work, f);
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

  std::map<StageKey, int> forward_done_;  // the last task of each forward (the loss waits)
};

}  // namespace

RankProgram build_rank_program(const StepPlan& plan, int rank) {
  return RankProgramBuilder(plan, rank).build();
}

}  // namespace codesim::workload
