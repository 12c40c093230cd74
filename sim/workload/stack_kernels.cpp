// The stack's kernels of a piece, sized from the piece's tensors.
#include "sim/workload/stack_kernels.hpp"

#include <algorithm>
#include <numeric>

#include "models/calibration/kernels.hpp"
#include "models/hardware/catalog.hpp"

namespace codesim::workload {
namespace {

// The H200 the software stacks' kernels were timed on (models/calibration/h200/moe), its HBM
// bandwidth, and the fraction of it a streaming elementwise kernel reached there.
constexpr core::BytesPerSecond kMeasuredOnHbm = hardware::kH200HbmBandwidth;
constexpr double kStreamingFraction = calibration::kernels::elementwise_efficiency;

// A kernel of irregular access at its measured fraction e of HBM: e splits in two, its bytes at the
// streaming fraction e0 of HBM and what e lacks of that at a rate of its own that does not follow
// HBM: 1 / rate = 1 / (e B) - 1 / (e0 B), B the H200's bandwidth (on the H200 the sum is its
// measured time; on a GPU of other bandwidth only the first part moves).
void split_irregular(cost::KernelShape& s) {
  if (s.hbm_efficiency > 0 && s.hbm_efficiency < kStreamingFraction) {
    const double per_byte = 1 / (s.hbm_efficiency * kMeasuredOnHbm.value) -
                            1 / (kStreamingFraction * kMeasuredOnHbm.value);
    s.hbm_efficiency = kStreamingFraction;
    s.beside_hbm = core::BytesPerSecond(1 / per_byte);
  }
}

cost::KernelShape shape_of(const StackKernel& k, core::Bytes bytes) {
  cost::KernelShape s{.kind = k.kind,
                      .bytes = bytes,
                      .hbm_efficiency = k.hbm_efficiency,
                      .fixed = k.fixed,
                      .launches = k.launches};
  if (k.irregular) {
    split_irregular(s);
  }
  return s;
}

constexpr double kBf16Bytes = 2;  // bytes per element

// The tensors a stack kernel's elements count in, for this piece.
struct Tensors {
  double tokens_hidden = 0;  // T x H
  double rows_hidden = 0;    // R x H
  double mla_query = 0;      // tokens x heads x d_qk (MLA only)
  double rotary = 0;         // tokens x (heads + rotary key heads) x rope
  double router_scores = 0;  // T x E (MoE layers)
  double router_picks = 0;   // T x k
  double experts = 0;        // E
  double logits = 0;         // T x V / TP, for each head (the main one and the MTP modules')
  double table = 0;          // V / TP x H: the embedding table's share
  bool loss = false;         // a training step's head: the loss follows it
  bool moe = false;
  bool sigmoid = false;        // the router scores by sigmoid (else softmax)
  bool group_limited = false;  // the router picks within its best expert groups
};

Tensors tensors_of(const llm::LlmSpec& m, PieceId piece, const KernelContext& c,
                   const llm::LayerKind& layer) {
  const double tp = static_cast<double>(c.tp);
  const double tokens = c.tokens / (c.sequence_parallel ? tp : 1.0);
  Tensors t{.tokens_hidden = tokens * m.hidden, .moe = m.moe.has_value() && layer.moe};
  if (piece.kind == PieceKind::embedding) {
    // Every GPU of the vocabulary-parallel TP group handles all the micro-batch's tokens.
    return {.tokens_hidden = c.tokens * static_cast<double>(m.hidden),
            .table = static_cast<double>(m.vocab) / tp * m.hidden};
  }
  if (piece.kind == PieceKind::head) {
    // The vocabulary-parallel head's logits: every token of the micro-batch, its share of words.
    t.logits = c.tokens * static_cast<double>(m.vocab) / tp * (1 + m.mtp_depth);
    t.loss = c.loss;
    return t;
  }
  if (t.moe) {
    const llm::MoeSpec& moe = *m.moe;
    t.router_scores = tokens * moe.routed_experts;
    t.router_picks = tokens * moe.activated_experts;
    t.experts = moe.routed_experts;
    t.sigmoid = moe.score == llm::ScoreFunction::sigmoid;
    t.group_limited = moe.expert_groups > 1 && moe.limited_groups < moe.expert_groups;
  }
  if (t.moe && piece.kind == PieceKind::mlp) {
    const auto rows = expert_group_rows(m, c, m.moe->routed_experts);
    t.rows_hidden = std::accumulate(rows.begin(), rows.end(), 0.0) * m.hidden;
  }
  if (piece.kind != PieceKind::attention) {
    return t;  // MLA's and rotary's tensors are the attention piece's
  }
  for (const auto& op : llm::attention_ops(m, layer, {.seq_len = c.tokens})) {
    if (op.op_class != llm::OpClass::attention) {
      continue;
    }
    const llm::AttentionDims& a = op.attention;
    t.rotary = c.tokens * (a.heads + a.rope_key_heads) / tp * a.rope;
    if (std::holds_alternative<llm::MlaSpec>(m.attention)) {
      t.mla_query = c.tokens * a.heads / tp * a.d_qk;
    }
  }
  return t;
}

bool applies(StackScope scope, PieceId piece, const Tensors& t) {
  const bool router = piece.kind == PieceKind::attention && t.moe;  // the router is there
  switch (scope) {
    case StackScope::attention:
      return piece.kind == PieceKind::attention;
    case StackScope::mlp:
      return piece.kind == PieceKind::mlp;
    case StackScope::routed_experts:
      return piece.kind == PieceKind::mlp && t.moe;
    case StackScope::mla:
      return piece.kind == PieceKind::attention && t.mla_query > 0;
    case StackScope::rotary:
      return piece.kind == PieceKind::attention && t.rotary > 0;
    case StackScope::router:
      return router;
    case StackScope::softmax_router:
      return router && !t.sigmoid;
    case StackScope::sigmoid_router:
      return router && t.sigmoid;
    case StackScope::top_k_router:
      return router && !t.group_limited;
    case StackScope::group_limited_router:
      return router && t.group_limited;
    case StackScope::loss:
      return piece.kind == PieceKind::head && t.loss;
    case StackScope::embedding:
      return piece.kind == PieceKind::embedding;
  }
  return false;
}

double bytes_of(const StackKernel& k, const Tensors& t) {
  const double query = k.scope == StackScope::mla ? t.mla_query : t.rotary;
  const StackElements& e = k.elements;
  return (e.tokens * t.tokens_hidden + e.rows * t.rows_hidden + e.query * query) * kBf16Bytes +
         e.scores * t.router_scores * 4 + e.picks * t.router_picks * 8 + e.experts * t.experts * 8 +
         e.logits * t.logits + e.table * t.table * kBf16Bytes;
}

// The stack's bytes and rate for an op-table kernel in `pass` (memory kernels run in F and B).
void apply(const OpRates& r, Pass pass, cost::KernelShape& shape) {
  if (pass == Pass::forward) {
    shape.bytes = shape.bytes * r.forward_factor;
    shape.hbm_efficiency = r.forward_efficiency;
    shape.launches = r.forward_launches;
  } else if (pass == Pass::backward) {
    shape.bytes = shape.bytes * r.backward_factor;
    shape.hbm_efficiency = r.backward_efficiency;
    shape.launches = r.backward_launches;
  }
  if (r.irregular && pass != Pass::weight) {
    split_irregular(shape);
  }
}

}  // namespace

std::vector<PieceKernel> stack_kernels(const StackInventory& stack, const llm::LlmSpec& m,
                                       PieceId piece, const KernelContext& c,
                                       const llm::LayerKind& layer) {
  std::vector<PieceKernel> out = piece_kernels(m, piece, c, layer);
  if (stack.replaces_permutes) {
    std::erase_if(out,
                  [](const PieceKernel& k) { return k.shape.kind == cost::KernelClass::permute; });
  }
  for (PieceKernel& k : out) {
    if (k.residual_norm) {
      apply(stack.residual_norm, piece.pass, k.shape);
    } else if (k.gated_activation) {
      apply(stack.gated_activation, piece.pass, k.shape);
    }
  }
  if (stack.kernels.empty() ||
      (piece.kind != PieceKind::attention && piece.kind != PieceKind::mlp &&
       piece.kind != PieceKind::head && piece.kind != PieceKind::embedding)) {
    return out;
  }
  const Tensors t = tensors_of(m, piece, c, layer);
  for (const StackKernel& k : stack.kernels) {
    if (k.pass != piece.pass || !applies(k.scope, piece, t)) {
      continue;
    }
    const double bytes = bytes_of(k, t);
    if (bytes <= 0 && k.fixed.value <= 0) {
      continue;
    }
    out.push_back({k.name, shape_of(k, core::Bytes(bytes)), false, std::nullopt});
  }
  return out;
}

}  // namespace codesim::workload
