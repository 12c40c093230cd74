// One pipeline rank's tasks and the communication its computation needs (rank_tasks.hpp).
#include "sim/workload/rank_tasks.hpp"

#include "sim/workload/step_program.hpp"
#include "sim/workload/training_state.hpp"

namespace codesim::workload {
namespace {

// Channels of one token's keys and values over all heads (what context parallelism gathers).
double kv_channels(const llm::LlmSpec& model, int tokens) {
  double width = 0;
  for (const auto& op :
       llm::attention_ops(model, model.layer(0), {.seq_len = tokens, .micro_batch = 1})) {
    if (op.op_class == llm::OpClass::attention) {
      width = op.attention.kv_heads * (op.attention.d_qk + op.attention.d_v);
    }
  }
  return width;
}

}  // namespace

RankTasks::RankTasks(const StepPlan& plan, int rank)
    : p_(plan),
      s_(plan.spec),
      sh_(plan.spec.shape),
      kv_width_(kv_channels(*plan.spec.model, sh_.tokens_per_micro_batch())) {
  out_.rank = rank;
}

// A TP collective of the micro-batch's BF16 activations (or their gradients) over the rank's TP
// group; the chain waits for it unless tp_overlap hides it under the GEMMs.
void RankTasks::tp_collective(const Place& at, const StageWork& w, CommKind kind, Pass pass,
                              Chain& c) {
  const PieceKind piece = kind == CommKind::tp_all_gather       ? PieceKind::tp_all_gather
                          : kind == CommKind::tp_reduce_scatter ? PieceKind::tp_reduce_scatter
                                                                : PieceKind::tp_all_reduce;
  const int task =
      comm_task(at, {piece, pass}, c.deps(),
                CommRef{.kind = kind,
                        .stage = w.stage,
                        .bytes = core::Bytes(static_cast<double>(sh_.tokens_per_micro_batch()) /
                                             sh_.cp * s_.model->hidden * kActivationBytes)});
  if (!sh_.tp_overlap) {
    c.last = task;
  }
}

// Context parallelism: the keys and values of the whole sequence (each GPU of the TP group its
// heads' share, BF16) gathered before attention's forward, their gradients reduce-scattered
// after its backward; the chain waits for them.
void RankTasks::cp_collective(const Place& at, const StageWork& w, CommKind kind, Pass pass,
                              Chain& c) {
  const PieceKind piece =
      kind == CommKind::cp_all_gather ? PieceKind::cp_all_gather : PieceKind::cp_reduce_scatter;
  c.last =
      comm_task(at, {piece, pass}, c.deps(),
                CommRef{.kind = kind,
                        .stage = w.stage,
                        .bytes = core::Bytes(static_cast<double>(sh_.tokens_per_micro_batch()) *
                                             kv_width_ / sh_.tp * kActivationBytes)});
}

// ZeRO-3: a layer's (or the head's, the embedding's) parameters (BF16) gathered over its
// replicas before it runs (on the communication stream, as soon as it is free: prefetched as
// far as that stream's order allows); the chain's next computation waits for them.
void RankTasks::gather(const Place& at, const StageWork& w, const GpuParams& g, Pass pass,
                       Chain& c) {
  if (sh_.zero != 3) {
    return;
  }
  std::vector<int> ready;
  for_each_replicated_group(sh_, g, [&](double params, bool experts) {
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

void RankTasks::gather_layer(const Place& at, const StageWork& w, int l, Pass pass, Chain& c) {
  gather(at, w, p_.params.layers[static_cast<std::size_t>(l)], pass, c);
}

// A bucket of gradients (a layer's, the head's, the embedding's) reduce-scattered on the
// data-parallel stream once the computation so far has produced them: in the stage's last
// chunk that computes them (ZeRO-0, 1), in every one (ZeRO-2, 3). Without overlap the step's
// end reduces them all (step_end.cpp).
void RankTasks::scatter(const Place& at, const StageWork& w, const GpuParams& g) {
  if (!sh_.dp_overlap || (sh_.zero < 2 && final_chunks_.count(at.chunk) == 0)) {
    return;
  }
  const int after = out_.last[static_cast<std::size_t>(StepStream::compute)];
  for_each_replicated_group(sh_, g, [&](double params, bool experts) {
    add(at, StepStream::data_parallel, {}, {PieceKind::dp_reduce_scatter, Pass::backward}, {after},
        CommRef{.kind = CommKind::dp_reduce_scatter,
                .stage = w.stage,
                .bytes = core::Bytes(params * sh_.precision.gradient_bytes),
                .experts = experts});
  });
}

void RankTasks::scatter_layer(const Place& at, const StageWork& w, int l) {
  scatter(at, w, p_.params.layers[static_cast<std::size_t>(l)]);
}

// The embedding's gradients, once the stage's backward has reached it.
void RankTasks::scatter_embedding(const Place& at, const StageWork& w) {
  if (layers_of(w).embedding) {
    scatter(at, w, p_.params.embedding);
  }
}

int RankTasks::add(const Place& at, StepStream stream, core::Seconds duration, PieceId piece,
                   const std::vector<int>& deps, std::optional<CommRef> comm) {
  const int id = static_cast<int>(out_.tasks.size());
  out_.tasks.push_back(make_step_task(id, out_.rank, stream, duration, piece, deps, std::move(comm),
                                      at.chunk, at.kind));
  out_.last[static_cast<std::size_t>(stream)] = id;
  return id;
}

int RankTasks::compute_task(const Place& at, PieceId piece, core::Seconds d,
                            const std::vector<int>& deps) {
  return add(at, StepStream::compute, d, piece, deps, std::nullopt);
}

int RankTasks::comm_task(const Place& at, PieceId piece, const std::vector<int>& deps, CommRef ref,
                         core::Seconds own) {
  return add(at, StepStream::comm, own, piece, deps, ref);
}

const StageLayers& RankTasks::layers_of(const StageWork& w) const {
  return p_.placement[static_cast<std::size_t>(w.stage)];
}

// Activations (forward) or their gradients (backward) to the neighbouring stage: what one GPU
// holds, its CP shard's tokens, split over TP under sequence parallelism (as Megatron's
// pipeline sends are shaped); each GPU of the TP x CP group sends its own over its own links.
int RankTasks::send(const Place& at, const StageWork& w, Chain& c, bool forward) {
  const int to_stage = forward ? w.stage + 1 : w.stage - 1;
  return comm_task(
      at, {PieceKind::send, forward ? Pass::forward : Pass::backward}, c.deps(),
      CommRef{.kind = CommKind::pp_send,
              .direction = w.direction,
              .from_rank = out_.rank,
              .to_rank = p_.schedule.rank_of(w.direction, to_stage),
              .bytes = core::Bytes(sh_.tokens_per_gpu() * s_.model->hidden * kActivationBytes)});
}

}  // namespace codesim::workload
