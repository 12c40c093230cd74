// Inference pieces from the kernel model (decode: its GEMMs and the core attention by FLOPs and
// KV bytes; prefill: the training forward pieces), the two-resource overlap of micro-batches, and
// the ISCA bound.
#include "sim/workload/inference.hpp"

#include <algorithm>
#include <variant>
#include <vector>

#include "models/cost/kernel_cost.hpp"
#include "models/llm/layer_ops.hpp"
#include "sim/workload/piece_model.hpp"

namespace codesim::workload {
namespace {

using cost::DType;
using cost::KernelClass;
using cost::KernelShape;

// Attention weights of one layer: its GEMMs' (projections in and out; norms are negligible).
double attention_params(const llm::LlmSpec& m) {
  double params = 0;
  for (const auto& op : llm::attention_ops(m, llm::OpShape{})) {
    params += op.op_class == llm::OpClass::gemm ? op.params : 0.0;
  }
  return params;
}

// Core attention of one decoded token against a context of `ctx` tokens, per head: FLOPs, and
// the KV-cache bytes it reads per request (BF16).
struct DecodeCore {
  double flops_per_head_token = 0;
  double kv_bytes_per_context_token = 0;
};

DecodeCore decode_core(const llm::LlmSpec& m) {
  if (const auto* mla = std::get_if<llm::MlaSpec>(&m.attention)) {
    // Absorbed MLA: scores over the latent plus the RoPE part, values over the latent.
    return {2.0 * (2.0 * mla->kv_lora_rank + mla->qk_rope_head_dim),
            2.0 * (mla->kv_lora_rank + mla->qk_rope_head_dim)};
  }
  const auto& g = std::get<llm::GqaSpec>(m.attention);
  return {2.0 * 2.0 * g.head_dim, 2.0 * 2.0 * g.kv_heads * g.head_dim};
}

cost::KernelCost gemm(const InferenceSpec& s, KernelClass kind, double m, double n, double k,
                      double batch) {
  KernelShape shape{.kind = kind,
                    .dtype = s.fp8_gemm ? DType::fp8 : DType::bf16,
                    .m = m,
                    .n = n,
                    .k = k,
                    .batch = batch};
  return cost::predict(shape, s.gpu, s.gpu.sms - s.held_sms, s.pieces.params.kernel);
}

// The busiest GPU's experts: each takes an equal share of its token-expert pairs.
KernelContext kernel_context(const InferenceSpec& s, int tokens) {
  const double per_expert = std::max(1.0, s.expert_tokens / s.experts_per_gpu);
  return {.tokens = tokens,
          .seq_len = s.context_len,
          .fp8_gemm = s.fp8_gemm,
          .expert_rows = std::vector<double>(static_cast<std::size_t>(s.experts_per_gpu), per_expert)};
}

// A forward piece's setting at `tokens` tokens on the spec's GPU, less the SMs held.
PieceContext piece_context(const InferenceSpec& s, int tokens) {
  return {
      .model = s.model, .gpu = s.gpu, .kernels = kernel_context(s, tokens), .held_sms = s.held_sms};
}

// The memory-bound kernels (norms, casts, activations, rotary, permutes) of a forward piece.
// (Decode prices its GEMMs and core attention itself, so only this part of the piece is kept.)
core::Seconds memory_kernels(const InferenceSpec& s, PieceKind kind, int layer, int tokens) {
  return piece_cost(s.pieces, piece_context(s, tokens), {kind, Pass::forward},
                    !s.model->is_moe_layer(layer))
      .memory;
}

LayerPieces decode_pieces(const InferenceSpec& s) {
  const auto& m = *s.model;
  const int moe_layer = m.moe ? m.dense_layers : 0;
  LayerPieces p;
  // Projections: the TP group's tokens through this GPU's share of the weights.
  const double group_tokens = static_cast<double>(s.tokens) * s.tp;
  const double params = attention_params(m) / s.tp;
  const auto projections = gemm(s, KernelClass::gemm, group_tokens, params / m.hidden, m.hidden, 1);
  // Core attention over the GPU's own requests, every head (sequence parallel: the KV cache of a
  // request lives on one GPU of its TP group).
  const DecodeCore core = decode_core(m);
  const double own = s.tokens;
  KernelShape attention{.kind = KernelClass::attention_forward, .dtype = DType::bf16};
  attention.flops = core::Flops(own * m.heads * s.context_len * core.flops_per_head_token);
  attention.bytes = core::Bytes(own * s.context_len * core.kv_bytes_per_context_token);
  const auto core_cost = cost::predict(attention, s.gpu, s.gpu.sms - s.held_sms,
                                       s.pieces.params.kernel);
  p.attention = projections.time + core_cost.time +
                memory_kernels(s, PieceKind::attention, moe_layer, s.tokens);
  p.attention_bound = core_cost.time > projections.time ? core_cost.bound : projections.bound;
  const double ffn = m.ffn_inter_dim;
  p.dense_mlp = gemm(s, KernelClass::gemm, s.tokens, 2 * ffn, m.hidden, 1).time +
                gemm(s, KernelClass::gemm, s.tokens, m.hidden, ffn, 1).time +
                memory_kernels(s, PieceKind::mlp, 0, s.tokens);
  if (m.moe) {
    const double inter = m.moe->expert_inter_dim;
    const double per_expert = std::max(1.0, s.expert_tokens / s.experts_per_gpu);
    const auto up =
        gemm(s, KernelClass::grouped_gemm, per_expert, 2 * inter, m.hidden, s.experts_per_gpu);
    const auto down =
        gemm(s, KernelClass::grouped_gemm, per_expert, m.hidden, inter, s.experts_per_gpu);
    p.moe = up.time + down.time + memory_kernels(s, PieceKind::mlp, moe_layer, s.tokens);
    p.moe_bound = up.bound;
    if (s.shared_expert && m.moe->shared_experts > 0) {
      const double shared = inter * m.moe->shared_experts;
      p.moe += gemm(s, KernelClass::gemm, s.tokens, 2 * shared, m.hidden, 1).time +
               gemm(s, KernelClass::gemm, s.tokens, m.hidden, shared, 1).time;
    }
  }
  return p;
}

LayerPieces prefill_pieces(const InferenceSpec& s) {
  const PieceContext context = piece_context(s, s.tokens);
  // A piece's time, and whether its memory-bound kernels outweigh its matrix work.
  auto piece = [&](PieceKind kind, int layer, std::string& bound) {
    const PieceCost c =
        piece_cost(s.pieces, context, {kind, Pass::forward}, !s.model->is_moe_layer(layer));
    bound = c.memory > c.gemm + c.attention ? "memory" : "compute";
    return c.total;
  };
  const int moe_layer = s.model->moe ? s.model->dense_layers : 0;
  LayerPieces p;
  std::string dense_bound;
  p.attention = piece(PieceKind::attention, moe_layer, p.attention_bound);
  p.dense_mlp = piece(PieceKind::mlp, 0, dense_bound);
  p.moe = s.model->moe ? piece(PieceKind::mlp, moe_layer, p.moe_bound) : core::Seconds(0);
  return p;
}

}  // namespace

LayerPieces inference_pieces(const InferenceSpec& s) {
  return s.phase == InferencePhase::decode ? decode_pieces(s) : prefill_pieces(s);
}

OverlapResult overlap_step(const LayerPieces& p, const OverlapSpec& s) {
  const core::Seconds dispatch = s.dispatch;
  const core::Seconds combine = s.combine;
  const int layers = s.layers;
  const int dense_layers = s.dense_layers;
  const int micro_batches = s.micro_batches;
  enum Resource { compute, comm };
  struct Piece {
    Resource on;
    double time;
  };
  // Each micro-batch's pieces in order.
  std::vector<Piece> chain;
  for (int l = 0; l < layers; ++l) {
    chain.push_back({compute, p.attention.value});
    if (l < dense_layers) {
      chain.push_back({compute, p.dense_mlp.value});
    } else {
      chain.push_back({comm, dispatch.value});
      chain.push_back({compute, p.moe.value});
      chain.push_back({comm, combine.value});
    }
  }
  const auto mbs = static_cast<std::size_t>(micro_batches);
  std::vector<std::size_t> next(mbs, 0);
  std::vector<double> ready(mbs, 0.0);
  double free_at[2] = {0, 0};
  OverlapResult r;
  for (std::size_t done = 0; done < chain.size() * mbs; ++done) {
    // The micro-batch whose next piece can start first (the lower index on a tie).
    std::size_t pick = mbs;
    double start = 0;
    for (std::size_t mb = 0; mb < mbs; ++mb) {
      if (next[mb] == chain.size()) {
        continue;
      }
      const double t = std::max(ready[mb], free_at[chain[next[mb]].on]);
      if (pick == mbs || t < start) {
        pick = mb;
        start = t;
      }
    }
    const Piece& piece = chain[next[pick]++];
    ready[pick] = free_at[piece.on] = start + piece.time;
    (piece.on == compute ? r.compute_busy : r.comm_busy) += core::Seconds(piece.time);
  }
  r.step = core::Seconds(*std::max_element(ready.begin(), ready.end()));
  return r;
}

DecodeBound decode_bound(const DecodeBoundSpec& s) {
  DecodeBound b;
  b.per_layer_transfer = core::Seconds((s.dispatch_bytes + s.combine_bytes) * s.tokens *
                                       s.experts_per_token * s.hidden / s.bandwidth.value);
  b.tpot = b.per_layer_transfer * static_cast<double>(s.micro_batches * s.layers);
  b.tokens_per_second = 1.0 / b.tpot.value;
  return b;
}

core::Seconds effective_tpot(core::Seconds step, bool mtp, double acceptance) {
  return mtp ? step / (1.0 + acceptance) : step;
}

}  // namespace codesim::workload
