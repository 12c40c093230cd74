// The stack's kernels of a piece, sized from the piece's tensors.
#include "sim/workload/stack_kernels.hpp"

#include <algorithm>
#include <numeric>

namespace codesim::workload {
namespace {

constexpr double kBf16Bytes = 2;  // bytes per element

// The tensors a stack kernel's elements count in, for this piece.
struct Tensors {
  double tokens_hidden = 0;  // T x H
  double rows_hidden = 0;    // R x H
  double mla_query = 0;      // tokens x heads x d_qk (MLA only)
  double rotary = 0;         // tokens x (heads + rotary key heads) x rope
  bool moe = false;
};

Tensors tensors_of(const llm::LlmSpec& m, PieceId piece, const KernelContext& c,
                   bool dense_layer) {
  const double tp = static_cast<double>(c.tp);
  const double tokens = c.tokens / (c.sequence_parallel ? tp : 1.0);
  Tensors t{.tokens_hidden = tokens * m.hidden, .moe = m.moe.has_value() && !dense_layer};
  if (t.moe && piece.kind == PieceKind::mlp) {
    const auto rows = expert_group_rows(m, c, m.moe->routed_experts);
    t.rows_hidden = std::accumulate(rows.begin(), rows.end(), 0.0) * m.hidden;
  }
  if (piece.kind != PieceKind::attention) {
    return t;  // MLA's and rotary's tensors are the attention piece's
  }
  for (const auto& op : llm::attention_ops(m, {.seq_len = c.tokens})) {
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
  }
  return false;
}

double elements(const StackKernel& k, const Tensors& t) {
  const double query = k.scope == StackScope::mla ? t.mla_query : t.rotary;
  return k.elements.tokens * t.tokens_hidden + k.elements.rows * t.rows_hidden +
         k.elements.query * query;
}

// The stack's bytes and rate for an op-table kernel in `pass` (memory kernels run in F and B).
void apply(const OpRates& r, Pass pass, cost::KernelShape& shape) {
  if (pass == Pass::forward) {
    shape.bytes = shape.bytes * r.forward_factor;
    shape.hbm_efficiency = r.forward_efficiency;
  } else if (pass == Pass::backward) {
    shape.bytes = shape.bytes * r.backward_factor;
    shape.hbm_efficiency = r.backward_efficiency;
  }
}

}  // namespace

std::vector<PieceKernel> stack_kernels(const StackInventory& stack, const llm::LlmSpec& m,
                                       PieceId piece, const KernelContext& c, bool dense_layer) {
  std::vector<PieceKernel> out = piece_kernels(m, piece, c, dense_layer);
  if (stack.replaces_permutes) {
    std::erase_if(out, [](const PieceKernel& k) {
      return k.shape.kind == cost::KernelClass::permute;
    });
  }
  for (PieceKernel& k : out) {
    if (k.residual_norm) {
      apply(stack.residual_norm, piece.pass, k.shape);
    } else if (k.gated_activation) {
      apply(stack.gated_activation, piece.pass, k.shape);
    }
  }
  if (stack.kernels.empty() || (piece.kind != PieceKind::attention && piece.kind != PieceKind::mlp)) {
    return out;
  }
  const Tensors t = tensors_of(m, piece, c, dense_layer);
  for (const StackKernel& k : stack.kernels) {
    if (k.pass != piece.pass || !applies(k.scope, piece, t)) {
      continue;
    }
    const double bytes = elements(k, t) * kBf16Bytes;
    if (bytes <= 0) {
      continue;
    }
    out.push_back({k.name,
                   cost::KernelShape{.kind = k.kind,
                                     .bytes = core::Bytes(bytes),
                                     .hbm_efficiency = k.hbm_efficiency},
                   false, std::nullopt});
  }
  return out;
}

}  // namespace codesim::workload
