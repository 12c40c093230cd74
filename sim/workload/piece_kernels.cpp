// Kernel lists of pieces from the op tables, and their time from the kernel cost model.
#include "sim/workload/piece_kernels.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string_view>
#include <utility>
#include <variant>

#include "sim/workload/unfused_attention.hpp"

namespace codesim::workload {
namespace {

using cost::DType;
using cost::KernelClass;
using cost::KernelShape;

constexpr double kBf16 = 2;  // bytes per element
// A cast to FP8 reads 2 bytes and writes 1 per element, twice (as is and transposed).
constexpr double kCastBytes = 4;

class Lister {
 public:
  Lister(const llm::LlmSpec& m, PieceId piece, const KernelContext& c)
      : m_(m), piece_(piece), c_(c) {}

  // The micro-batch's gradient of `weights` elements added into the step's buffer.
  void accumulate(const std::string& name, double weights) {
    if (c_.gradient_accumulation > 0 && weights > 0) {
      out_.push_back({"accumulate " + name,
                      KernelShape{.kind = KernelClass::elementwise,
                                  .bytes = core::Bytes(weights * c_.gradient_accumulation)},
                      false, std::nullopt});
    }
  }

  void add(const llm::LayerOp& op) {
    if (op.moe == llm::MoeRole::shared && !c_.shared_experts) {
      return;
    }
    switch (op.op_class) {
      case llm::OpClass::gemm:
      case llm::OpClass::grouped_gemm:
        gemm(op);
        break;
      case llm::OpClass::attention:
        attention(op);
        break;
      case llm::OpClass::norm:
        // F: read x, write y; B: read x and dy, write dx. No weight pass of its own. Sequence
        // parallelism gives each GPU of the TP group its share of the tokens. With dropout, the
        // residual add before a residual-stream norm also writes (F) and reads (B) a 1-byte mask
        // per element (Megatron's bias-dropout-add).
        memory(op.name, KernelClass::norm,
               op.gemm.rows / sequence_split() * op.gemm.in *
                   (kBf16 * (pass() == Pass::forward ? 2.0 : 3.0) +
                    (c_.dropout && op.residual_stream ? 1.0 : 0.0)),
               false, op.residual_stream);
        break;
      case llm::OpClass::elementwise: {
        // SwiGLU: F reads gate and up and writes the product (with FP8 GEMMs: in FP8, as is and
        // transposed, the down projection's input); B reads three, writes two. GELU (ungated):
        // F reads one and writes one, B reads two and writes one.
        // A TP-split FFN's activation holds its share of the width; the experts' its share of
        // the tokens (each GPU of the TP group dispatches its own).
        const bool gated = op.moe != llm::MoeRole::none || m_.ffn != llm::FfnKind::gelu;
        const double read = gated ? 2.0 : 1.0;
        const double forward = read * kBf16 + (c_.fp8_gemm ? 2.0 : kBf16);
        const double split = op.routed_expert() ? sequence_split() : tp();
        memory(op.name, KernelClass::elementwise,
               op.gemm.rows * op.gemm.in / split *
                   (pass() != Pass::forward ? (2.0 * read + 1.0) * kBf16 : forward),
               gated);
        break;
      }
      case llm::OpClass::lookup:
        // F: each token's row read and written, at the elementwise rate (every GPU of a
        // vocabulary-parallel TP group looks up all the micro-batch's tokens, zeroing those
        // outside its share); its weight gradient is the software stack's (stack_kernels.hpp).
        if (pass() == Pass::forward) {
          memory(op.name, KernelClass::elementwise, op.forward_bytes.value);
        }
        break;
    }
  }

  std::vector<PieceKernel> take() { return std::move(out_); }

 private:
  Pass pass() const { return piece_.pass; }
  double tp() const { return static_cast<double>(c_.tp); }
  // Tokens are split over the TP group where sequence parallelism applies (norms, the experts'
  // dispatch); without it every GPU of the group holds them all.
  double sequence_split() const { return c_.sequence_parallel ? tp() : 1.0; }

  // Input and output splits of a GEMM's weights over the TP group.
  std::pair<double, double> tp_split(const llm::LayerOp& op) const {
    switch (op.split) {
      case llm::TensorSplit::column:
        return {1.0, tp()};
      case llm::TensorSplit::row:
        return {tp(), 1.0};
      case llm::TensorSplit::none:
        break;
    }
    return {1.0, 1.0};
  }

  void memory(const std::string& name, KernelClass kind, double bytes,
              bool gated_activation = false, bool residual_norm = false) {
    if (pass() == Pass::weight || bytes <= 0) {
      return;
    }
    out_.push_back({name, KernelShape{.kind = kind, .bytes = core::Bytes(bytes)}, false,
                    std::nullopt, gated_activation, residual_norm});
  }

  bool fp8(const llm::LayerOp& op) const {
    if (!c_.fp8_gemm || op.moe == llm::MoeRole::router) {
      return false;
    }
    return piece_.kind != PieceKind::head || op.routed_expert();
  }

  std::vector<double> group_rows(const llm::LayerOp& op) const {
    return expert_group_rows(m_, c_, op.gemm.groups);
  }

  // Orients the GEMM `k` for the pass over `rows` (grouped: each expert's `groups`): F computes
  // out from in, B in from out, W the weight's in x out summed over the rows. Returns the
  // elements its FP8 operand casts (none in W: F and B cast them), or nothing in no pass.
  std::optional<double> orient(const llm::GemmDims& g, bool grouped,
                               const std::vector<double>& groups, double rows,
                               KernelShape& k) const {
    double cast_elements = 0;
    switch (pass()) {
      case Pass::forward:
        k.n = g.out;
        k.k = g.in;
        cast_elements = rows * g.in;
        break;
      case Pass::backward:
        k.n = g.in;
        k.k = g.out;
        cast_elements = rows * g.out;
        break;
      case Pass::weight:
        // Grouped: out x in per expert over that expert's rows (the orientation
        // torch._grouped_mm's backward runs).
        if (grouped) {
          k.m = g.out;
          k.n = g.in;
          k.group_k = groups;
        } else {
          k.m = g.in;
          k.n = g.out;
          k.k = rows;
        }
        k.flops = core::Flops(2.0 * rows * g.in * g.out);
        return cast_elements;
      case Pass::none:
        return std::nullopt;
    }
    if (grouped) {
      k.group_m = groups;
    } else {
      k.m = rows;
    }
    return cast_elements;
  }

  // The kernels before a GEMM: the routed experts' permute and unpermute around their first
  // grouped GEMM (F and B), and the cast of its operand to FP8 unless it arrives in FP8.
  void gemm_companions(const llm::LayerOp& op, const KernelShape& k, const llm::GemmDims& g,
                       double rows, double cast_elements) {
    const bool grouped = op.op_class == llm::OpClass::grouped_gemm;
    const bool experts_in = op.routed_expert() && op.ffn == llm::FfnPart::in;
    const bool experts_down = op.routed_expert() && op.ffn == llm::FfnPart::down;
    if (grouped && experts_in && pass() != Pass::weight) {
      // Tokens to their experts' rows (FP8 in, FP8 out) and the weighted sum back (BF16).
      out_.push_back(
          {"permute",
           KernelShape{.kind = KernelClass::permute, .bytes = core::Bytes(rows * g.in * 2.0)},
           false, std::nullopt});
      out_.push_back(
          {"unpermute",
           KernelShape{.kind = KernelClass::permute,
                       .bytes = core::Bytes((rows + c_.tokens / sequence_split()) * g.in * kBf16)},
           false, std::nullopt});
    }
    // FP8 dispatch delivers the experts' inputs in FP8, and combine(B) their output gradients.
    // The activation before a down projection writes its FP8 input itself (fused, F).
    const bool down = op.ffn == llm::FfnPart::down;
    const bool arrives_fp8 = (experts_in && pass() == Pass::forward) ||
                             (experts_down && pass() == Pass::backward) ||
                             (down && pass() == Pass::forward);
    if (k.dtype == DType::fp8 && cast_elements > 0 && !arrives_fp8) {
      out_.push_back({"cast " + op.name,
                      KernelShape{.kind = KernelClass::quantize,
                                  .dtype = DType::fp8,
                                  .bytes = core::Bytes(cast_elements * kCastBytes)},
                      false, std::nullopt});
    }
  }

  void gemm(const llm::LayerOp& op) {
    llm::GemmDims g = op.gemm;
    const auto [in_split, out_split] = tp_split(op);
    g.in /= in_split;
    g.out /= out_split;
    const bool grouped = op.op_class == llm::OpClass::grouped_gemm;
    KernelShape k{.kind = grouped ? KernelClass::grouped_gemm : KernelClass::gemm,
                  .dtype = fp8(op) ? DType::fp8 : DType::bf16};
    const std::vector<double> groups = grouped ? group_rows(op) : std::vector<double>{};
    double rows = g.rows;
    if (grouped) {
      rows = 0;
      for (double r : groups) {
        rows += r;
      }
    }
    const std::optional<double> cast_elements = orient(g, grouped, groups, rows, k);
    if (!cast_elements) {
      return;
    }
    gemm_companions(op, k, g, rows, *cast_elements);
    out_.push_back({op.name, std::move(k), pass() == Pass::weight, std::nullopt});
    if (pass() == Pass::weight) {
      accumulate(op.name, g.in * g.out * (grouped ? static_cast<double>(groups.size()) : 1.0));
    }
  }

  void attention(const llm::LayerOp& op) {
    if (pass() == Pass::weight) {
      return;
    }
    // The TP group splits the heads.
    const llm::AttentionDims& a = op.attention;
    const double rows = op.gemm.rows;
    memory("rotary", KernelClass::elementwise,
           rows * (a.heads + a.rope_key_heads) / tp() * a.rope * kBf16 * 2.0);
    if (c_.decode_context > 0) {
      decode_attention(op);
      return;
    }
    if (c_.unfused_attention) {
      const UnfusedAttentionShape shape{.batch_heads = rows / c_.seq_len * a.heads / tp(),
                                        .seq = static_cast<double>(c_.seq_len),
                                        .d_qk = a.d_qk,
                                        .d_v = a.d_v,
                                        .dropout = c_.dropout};
      for (PieceKernel& k : unfused_attention_kernels(shape, pass())) {
        out_.push_back(std::move(k));
      }
      return;
    }
    cost::AttentionShape shape{.batch = rows / c_.seq_len,
                               .heads = a.heads / tp(),
                               .seq = static_cast<double>(c_.seq_len),
                               .d_qk = static_cast<int>(a.d_qk),
                               .d_v = static_cast<int>(a.d_v),
                               .causal = true,
                               .pass = pass() == Pass::forward ? cost::AttentionPass::forward
                                                               : cost::AttentionPass::backward,
                               .keys = llm::attended_keys(a.layer, c_.seq_len, true),
                               .reach = static_cast<double>(a.layer.window)};
    out_.push_back({op.name,
                    KernelShape{.kind = pass() == Pass::forward ? KernelClass::attention_forward
                                                                : KernelClass::attention_backward},
                    false, shape});
  }

  // One query per request against its cache: the TP group's requests split by sequence
  // parallelism, each GPU all heads of its own (their cache lives there); the new token's K and
  // V (MLA: its latent) written into the cache first.
  void decode_attention(const llm::LayerOp& op) {
    const llm::AttentionDims& a = op.attention;
    cost::DecodeAttentionShape d{.requests = op.gemm.rows / tp(),
                                 .context = llm::cached_tokens(a.layer, c_.decode_context),
                                 .heads = a.heads,
                                 .kv_heads = a.kv_heads,
                                 .d_qk = a.d_qk,
                                 .d_v = a.d_v};
    int cached_tensors = 2;
    if (const auto* mla = std::get_if<llm::MlaSpec>(&m_.attention)) {
      d.kv_heads = 1;
      d.d_qk = mla->kv_lora_rank + mla->qk_rope_head_dim;
      d.d_v = mla->kv_lora_rank;
      d.latent = true;
      cached_tensors = 1;
    }
    const double token_bytes = cost::decode_kv_bytes({.requests = d.requests,
                                                      .context = 1,
                                                      .kv_heads = d.kv_heads,
                                                      .d_qk = d.d_qk,
                                                      .d_v = d.d_v,
                                                      .latent = d.latent})
                                   .value;
    for (int i = 0; i < cached_tensors; ++i) {
      memory("kv cache write", KernelClass::memcpy, token_bytes / cached_tensors * 2.0);
    }
    PieceKernel k{op.name, KernelShape{.kind = KernelClass::attention_forward}, false,
                  std::nullopt};
    k.decode_attention = d;
    out_.push_back(std::move(k));
  }

  const llm::LlmSpec& m_;
  PieceId piece_;
  const KernelContext& c_;
  std::vector<PieceKernel> out_;
};

}  // namespace

std::vector<double> expert_group_rows(const llm::LlmSpec& m, const KernelContext& c,
                                      double experts) {
  std::vector<double> rows = c.expert_rows;
  if (rows.empty()) {
    const int local = std::max(1, static_cast<int>(std::ceil(experts / c.ep)));
    const double all = c.tokens * m.moe->activated_experts;
    rows.assign(static_cast<std::size_t>(local), all / local);
  }
  const double split = c.sequence_parallel ? static_cast<double>(c.tp) : 1.0;
  for (double& r : rows) {
    r /= split;
  }
  return rows;
}

std::vector<llm::LayerOp> piece_ops(const llm::LlmSpec& m, PieceId piece, int tokens,
                                    const llm::LayerKind& layer) {
  const llm::OpShape shape{.seq_len = tokens, .micro_batch = 1, .causal = true};
  const bool moe = m.moe && layer.moe;
  std::vector<llm::LayerOp> ops;
  if (piece.kind == PieceKind::attention) {
    ops = llm::attention_ops(m, layer, shape);
    if (moe) {
      for (const auto& op : llm::moe_ops(m, shape)) {
        if (op.moe == llm::MoeRole::gate_norm || op.moe == llm::MoeRole::router) {
          ops.push_back(op);
        }
      }
    }
  } else if (piece.kind == PieceKind::mlp && !moe) {
    ops = llm::dense_ffn_ops(m, shape);
  } else if (piece.kind == PieceKind::mlp) {
    for (const auto& op : llm::moe_ops(m, shape)) {
      if (op.moe != llm::MoeRole::gate_norm && op.moe != llm::MoeRole::router) {
        ops.push_back(op);
      }
    }
  } else if (piece.kind == PieceKind::head || piece.kind == PieceKind::embedding) {
    for (const auto& block : llm::model_blocks(m, shape)) {
      const bool wanted = piece.kind == PieceKind::head ? block.kind == llm::BlockKind::head ||
                                                              block.kind == llm::BlockKind::mtp
                                                        : block.kind == llm::BlockKind::embedding;
      if (wanted) {
        ops.insert(ops.end(), block.ops.begin(), block.ops.end());
      }
    }
  }
  return ops;
}

std::vector<PieceKernel> piece_kernels(const llm::LlmSpec& m, PieceId piece, const KernelContext& c,
                                       const llm::LayerKind& layer) {
  if (piece == PieceId{PieceKind::combine, Pass::backward}) {
    if (!c.fp8_gemm) {
      return {};
    }
    // The gradient of the micro-batch's tokens, cast to FP8 before it is sent to the experts.
    const double elements = static_cast<double>(c.tokens) * m.hidden;
    return {
        {"cast combine gradient",
         {.kind = KernelClass::quantize, .dtype = DType::fp8, .bytes = core::Bytes(elements * 3)},
         false,
         std::nullopt}};
  }
  const std::vector<llm::LayerOp> ops = piece_ops(m, piece, c.tokens, layer);
  std::vector<PieceKernel> out;
  if (c.recompute_selected && piece.pass != Pass::forward) {
    // The input backward needs the norms' and up projections' outputs; the weight gradient of
    // the experts' down projection needs their SwiGLU output (its input).
    Lister again(m, {piece.kind, Pass::forward}, c);
    for (const auto& op : ops) {
      const bool mla_up = op.name == "q_up" || op.name == "kv_up";
      const bool moe_swiglu =
          op.op_class == llm::OpClass::elementwise && op.moe != llm::MoeRole::none;
      if (piece.pass == Pass::backward ? op.op_class == llm::OpClass::norm || mla_up : moe_swiglu) {
        again.add(op);
      }
    }
    for (PieceKernel& k : again.take()) {
      k.op = "recompute " + k.op;
      out.push_back(std::move(k));
    }
  }
  Lister lister(m, piece, c);
  for (const auto& op : ops) {
    lister.add(op);
  }
  if (piece == PieceId{PieceKind::embedding, Pass::weight}) {
    // The table's gradient is dense: its share of the vocabulary, every column.
    lister.accumulate("embedding", static_cast<double>(m.vocab) / c.tp * m.hidden);
  }
  for (PieceKernel& k : lister.take()) {
    out.push_back(std::move(k));
  }
  return out;
}

PieceCost price(const std::vector<PieceKernel>& kernels, const hardware::GpuSpec& gpu, int sms,
                const KernelParams& p) {
  PieceCost total;
  cost::CostParams wgrad = p.kernel;
  wgrad.fp8_compute_scale *= p.fp8_wgrad_scale;
  wgrad.fp8_grouped_compute_scale *= p.fp8_grouped_wgrad_scale;
  for (const PieceKernel& k : kernels) {
    if (k.decode_attention) {
      const auto d =
          cost::predict_decode_attention(k.decode_attention->latent ? p.decode_mla : p.decode_gqa,
                                         *k.decode_attention, gpu, sms, p.kernel);
      total.total += d.time;
      total.attention += d.time;
      total.kernels += d.kernels;
      // Decode attention streams the KV cache: memory-bound, its power the elementwise kernels'.
      total.work.add(hardware::PowerActivity::elementwise, d.time,
                     cost::decode_kv_bytes(*k.decode_attention).value, gpu);
      continue;
    }
    const cost::KernelCost c =
        k.attention ? cost::predict_attention(*k.attention, gpu, sms, p.attention, p.kernel)
                    : cost::predict(k.shape, gpu, sms, k.weight_gradient ? wgrad : p.kernel);
    total.total += c.time;
    const hardware::PowerActivity activity =
        k.attention ? hardware::PowerActivity::attention
                    : cost::power_activity(k.shape.kind, k.shape.dtype);
    const bool tensor = k.attention || k.shape.kind == KernelClass::gemm ||
                        k.shape.kind == KernelClass::grouped_gemm;
    total.work.add(activity, c.time, tensor ? c.flops.value : c.bytes.value, gpu);
    if (tensor) {
      total.work.add_traffic(c.time, c.bytes.value, gpu);
    }
    if (k.attention) {
      total.attention += c.time;
    } else if (k.shape.kind == KernelClass::gemm || k.shape.kind == KernelClass::grouped_gemm) {
      total.gemm += c.time;
      if (k.shape.kind == KernelClass::grouped_gemm) {
        total.grouped += c.time;
      }
    } else {
      total.memory += c.time;
    }
    total.kernels += k.shape.launches;
  }
  return total;
}

}  // namespace codesim::workload
