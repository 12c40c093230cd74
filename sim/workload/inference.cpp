// Inference pieces from the kernel model (the forward pieces' kernels; decode's attention core by
// its kernel and shape), the two-resource overlap of micro-batches, and the ISCA bound.
#include "sim/workload/inference.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "models/cost/kernel_cost.hpp"
#include "sim/workload/piece_model.hpp"

namespace codesim::workload {
namespace {

using cost::KernelClass;

// Experts `pairs` token-expert pairs reach among `n`, routing uniform: n (1 - (1 - 1/n)^pairs),
// rounded, at least one. A decode batch of a few tokens reads only the experts it reaches.
double experts_reached(double n, double pairs) {
  return std::max(1.0, std::round(n * (1.0 - std::pow(1.0 - 1.0 / n, pairs))));
}

// The GPU's kernels' setting: the TP group's tokens (sequence parallel), decode's cache, and the
// rows of the experts it hosts (the busiest GPU's pairs from the EP round, or the group's tokens
// x top-k) spread over the experts they reach.
KernelContext kernel_context(const InferenceSpec& s) {
  const bool decode = s.phase == InferencePhase::decode;
  KernelContext k{.tokens = s.tokens * s.tp,
                  .seq_len = decode ? 1 : s.context_len,
                  .fp8_gemm = s.fp8_gemm,
                  .tp = s.tp,
                  .sequence_parallel = true,
                  .decode_context = decode ? s.context_len : 0,
                  .shared_experts = s.shared_expert,
                  .unfused_attention = s.unfused_attention};
  if (s.model->moe) {
    const double own_pairs = s.expert_tokens > 0
                                 ? s.expert_tokens
                                 : static_cast<double>(s.tokens) * s.model->moe->activated_experts;
    const double reached = experts_reached(s.experts_per_gpu, own_pairs);
    // KernelContext splits the rows over the TP group (sequence parallelism).
    k.expert_rows.assign(static_cast<std::size_t>(reached), own_pairs * s.tp / reached);
  }
  return k;
}

PieceCost piece(const InferenceSpec& s, PieceKind kind, const llm::LayerKind& layer) {
  const PieceContext context{
      .model = s.model, .gpu = s.gpu, .kernels = kernel_context(s), .held_sms = s.held_sms};
  return piece_cost(s.pieces, context, {kind, Pass::forward}, layer);
}

// A MoE layer's experts with the layer's routing: each expert's rows its share of the GPU's
// token-expert pairs (the experts no pair reached run nothing).
PieceCost experts_routed(const InferenceSpec& s, const std::vector<double>& shares) {
  PieceContext context{
      .model = s.model, .gpu = s.gpu, .kernels = kernel_context(s), .held_sms = s.held_sms};
  const double pairs = static_cast<double>(s.tokens) * s.model->moe->activated_experts;
  context.kernels.expert_rows.clear();
  for (const double share : shares) {
    if (share > 0) {
      // KernelContext splits the rows over the TP group (sequence parallelism).
      context.kernels.expert_rows.push_back(pairs * share * s.tp);
    }
  }
  return piece_cost(s.pieces, context, {PieceKind::mlp, Pass::forward}, llm::kMoeLayer);
}

std::string bound_of(const PieceCost& c) {
  return c.memory > c.gemm + c.attention ? "memory-bound kernels" : "matrix and attention";
}

// The output head: every decoded token, or the last token of each prompt; sampling reads the
// logits once more.
PieceCost head(const InferenceSpec& s) {
  InferenceSpec last = s;
  if (s.phase == InferencePhase::prefill) {
    last.tokens = std::max(1, s.tokens / std::max(1, s.context_len));
  }
  PieceCost c = piece(last, PieceKind::head, llm::kDenseLayer);
  if (s.sampling) {
    // The TP group's tokens x its share of the vocabulary = the GPU's own tokens' logits.
    const double logits = static_cast<double>(last.tokens) * s.model->vocab;
    const core::Bytes bytes(logits * 2.0 * 2.0);
    const core::Seconds t = cost::predict({.kind = KernelClass::elementwise, .bytes = bytes}, s.gpu,
                                          s.gpu.sms - s.held_sms, s.pieces.params.kernel)
                                .time;
    c.total += t;
    c.work.add(hardware::PowerActivity::elementwise, t, bytes.value, s.gpu);
  }
  return c;
}

// The piece's time at clock ratio r: its kernels' work stretched, the rest as it was.
core::Seconds stretched(core::Seconds t, const cost::Work& w, double ratio,
                        const hardware::PowerSpec& power) {
  return t + (cost::time_at(w, ratio, power) - w.total());
}

}  // namespace

LayerPieces inference_pieces(const InferenceSpec& s) {
  LayerPieces p;
  const bool moe = s.model->moe.has_value();
  // Each kind of layer's attention priced once; the bound is the costliest kind's.
  std::vector<std::pair<llm::LayerKind, PieceCost>> kinds;
  for (int l = 0; l < s.model->layers; ++l) {
    const llm::LayerKind kind = s.model->layer(l);
    auto it =
        std::find_if(kinds.begin(), kinds.end(), [&](const auto& k) { return k.first == kind; });
    if (it == kinds.end()) {
      kinds.emplace_back(kind, piece(s, PieceKind::attention, kind));
      it = std::prev(kinds.end());
    }
    p.layers.push_back(
        {.attention = it->second.total, .moe = kind.moe, .attention_work = it->second.work});
    p.attention += it->second.total / static_cast<double>(s.model->layers);
  }
  const auto costliest = std::max_element(
      kinds.begin(), kinds.end(),
      [](const auto& a, const auto& b) { return a.second.total < b.second.total; });
  p.attention_bound = bound_of(costliest->second);
  const PieceCost dense = piece(s, PieceKind::mlp, llm::kDenseLayer);
  p.dense_mlp = dense.total;
  p.dense_mlp_work = dense.work;
  p.moe_bound = bound_of(dense);
  const PieceCost even = moe ? piece(s, PieceKind::mlp, llm::kMoeLayer) : dense;
  std::size_t moe_layers = 0;
  for (OverlapLayer& layer : p.layers) {
    const PieceCost& c = !layer.moe ? dense
                         : s.expert_shares.empty()
                             ? even
                             : experts_routed(s, s.expert_shares.at(moe_layers));
    layer.ffn = c.total;
    layer.ffn_work = c.work;
    if (layer.moe) {
      p.moe += c.total;
      ++moe_layers;
      p.moe_bound = bound_of(c);
    }
  }
  if (moe_layers > 0) {
    p.moe = p.moe / static_cast<double>(moe_layers);
  }
  const PieceCost h = head(s);
  const PieceCost lookup = piece(s, PieceKind::embedding, llm::kDenseLayer);
  p.head = h.total + lookup.total;
  p.head_work = h.work;
  p.head_work += lookup.work;
  return p;
}

cost::Work step_work(const LayerPieces& p, int micro_batches, bool head) {
  cost::Work pass;
  for (const OverlapLayer& layer : p.layers) {
    pass += layer.attention_work;
    pass += layer.ffn_work;
  }
  if (head) {
    pass += p.head_work;
  }
  cost::Work out;
  for (int i = 0; i < micro_batches; ++i) {
    out += pass;
  }
  return out;
}

LayerPieces at_clock(LayerPieces p, double ratio, const hardware::PowerSpec& power) {
  p.attention = core::Seconds(0);
  p.moe = core::Seconds(0);
  double moe_layers = 0;
  for (OverlapLayer& layer : p.layers) {
    layer.attention = stretched(layer.attention, layer.attention_work, ratio, power);
    p.attention += layer.attention / static_cast<double>(p.layers.size());
    layer.ffn = stretched(layer.ffn, layer.ffn_work, ratio, power);
    if (layer.moe) {
      p.moe += layer.ffn;
      ++moe_layers;
    }
  }
  if (moe_layers > 0) {
    p.moe = p.moe / moe_layers;
  }
  p.dense_mlp = stretched(p.dense_mlp, p.dense_mlp_work, ratio, power);
  p.head = stretched(p.head, p.head_work, ratio, power);
  return p;
}

OverlapResult overlap_step(const LayerPieces& p, const OverlapSpec& s) {
  const core::Seconds dispatch = s.dispatch;
  const core::Seconds combine = s.combine;
  const int micro_batches = s.micro_batches;
  enum Resource { compute, comm };
  struct Piece {
    Resource on;
    double time;
  };
  // Each micro-batch's pieces in order.
  std::vector<Piece> chain;
  for (const OverlapLayer& layer : s.layers) {
    chain.push_back({compute, layer.attention.value});
    if (!layer.moe) {
      chain.push_back({compute, layer.ffn.value});
    } else {
      chain.push_back({comm, dispatch.value});
      chain.push_back({compute, layer.ffn.value});
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
  // Each micro-batch's output head after its last layer.
  const double head = s.head ? p.head.value : 0.0;
  double end = 0;
  for (std::size_t mb = 0; mb < mbs; ++mb) {
    end = std::max(end, free_at[compute] = std::max(ready[mb], free_at[compute]) + head);
    r.compute_busy += core::Seconds(head);
  }
  r.step = core::Seconds(end);
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
