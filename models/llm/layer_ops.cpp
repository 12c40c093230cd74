// Operation lists with FLOPs and bytes. Conventions:
// - A GEMM of an (m x k) input by a (k x n) weight costs 2mkn FLOPs forward, 2mkn for the input
//   gradient and 2mkn for the weight gradient.
// - Attention's two products (Q K^T and P V) cost 2 * tokens * keys * heads * (d_qk + d_v)
//   forward, where keys = seq_len/2 when causal (the lower triangle) and seq_len otherwise, or
//   fewer for a sliding or chunked span (attended_keys); the backward computes four products
//   (dV, dP, dQ, dK), twice the forward, and has no weights. Attention sinks add one parameter
//   per head.
// - Norms and activations are memory-bound: a few FLOPs per element, not model FLOPs.
#include "models/llm/layer_ops.hpp"

namespace codesim::llm {
namespace {

using core::Bytes;
using core::Flops;

double d(int v) {
  return static_cast<double>(v);
}

// `rows` x k inputs times k x n weights, with `experts` weight matrices of which `active` serve a
// token (1 and 1 for a plain GEMM).
LayerOp matmul(std::string name, OpClass op_class, const OpShape& s, double rows, double k,
               double n, double experts, double active) {
  const double f = 2.0 * rows * k * n;
  return LayerOp{.name = std::move(name),
                 .op_class = op_class,
                 .forward = Flops(f),
                 .backward_input = Flops(f),
                 .backward_weight = Flops(f),
                 .forward_bytes = Bytes(s.element_bytes * (rows * k + experts * k * n + rows * n)),
                 .params = experts * k * n,
                 .active_params = active * k * n,
                 .gemm = {.rows = rows, .in = k, .out = n, .groups = experts}};
}

LayerOp gemm(std::string name, const OpShape& s, double k, double n,
             TensorSplit split = TensorSplit::none) {
  LayerOp op = matmul(std::move(name), OpClass::gemm, s, s.tokens(), k, n, 1, 1);
  op.split = split;
  return op;
}

LayerOp with_role(LayerOp op, MoeRole role) {
  op.moe = role;
  return op;
}

LayerOp in_ffn(LayerOp op, FfnPart part) {
  op.ffn = part;
  return op;
}

constexpr TensorSplit kColumn = TensorSplit::column;
constexpr TensorSplit kRow = TensorSplit::row;

// RMSNorm over `width` channels: square, sum, scale, multiply (4 FLOPs per element).
LayerOp norm(std::string name, const OpShape& s, double width) {
  const double elements = s.tokens() * width;
  return LayerOp{.name = std::move(name),
                 .op_class = OpClass::norm,
                 .forward = Flops(4.0 * elements),
                 .backward_input = Flops(8.0 * elements),
                 .backward_weight = Flops(2.0 * elements),
                 .forward_bytes = Bytes(s.element_bytes * (2.0 * elements + width)),
                 .params = width,
                 .active_params = width,
                 .gemm = {.rows = s.tokens(), .in = width}};
}

// A layer's attention or FFN norm, on the residual stream.
LayerOp residual_norm(std::string name, const OpShape& s, double width) {
  LayerOp op = norm(std::move(name), s, width);
  op.residual_stream = true;
  return op;
}

// SwiGLU: silu(gate) * up over `width` channels per token-row (about 5 FLOPs per element).
LayerOp swiglu(std::string name, const OpShape& s, double rows, double width) {
  const double elements = rows * width;
  return LayerOp{.name = std::move(name),
                 .op_class = OpClass::elementwise,
                 .forward = Flops(5.0 * elements),
                 .backward_input = Flops(10.0 * elements),
                 .backward_weight = Flops(0),
                 .forward_bytes = Bytes(s.element_bytes * 3.0 * elements),
                 .gemm = {.rows = rows, .in = width}};
}

// GELU over `width` channels per token (about 8 FLOPs per element with the tanh form): reads and
// writes each element once.
LayerOp gelu(std::string name, const OpShape& s, double width) {
  const double elements = s.tokens() * width;
  return LayerOp{.name = std::move(name),
                 .op_class = OpClass::elementwise,
                 .forward = Flops(8.0 * elements),
                 .backward_input = Flops(16.0 * elements),
                 .backward_weight = Flops(0),
                 .forward_bytes = Bytes(s.element_bytes * 2.0 * elements),
                 .gemm = {.rows = s.tokens(), .in = width}};
}

LayerOp attention_core(const OpShape& s, const LayerKind& layer, double heads, double d_qk,
                       double d_v, double kv_heads, double rope, double rope_key_heads) {
  const double t = s.tokens();
  const double keys = attended_keys(layer, s.seq_len, s.causal);
  const double f = 2.0 * t * keys * heads * (d_qk + d_v);
  return LayerOp{.name = "attention_core",
                 .op_class = OpClass::attention,
                 .forward = Flops(f),
                 .backward_input = Flops(2.0 * f),
                 .backward_weight = Flops(0),
                 // Fused kernel: read Q, K, V, write O (K and V once per KV head).
                 .forward_bytes =
                     Bytes(s.element_bytes * t * (heads * (d_qk + d_v) + kv_heads * (d_qk + d_v))),
                 .gemm = {.rows = t},
                 .attention = {.heads = heads,
                               .kv_heads = kv_heads,
                               .d_qk = d_qk,
                               .d_v = d_v,
                               .rope = layer.rope ? rope : 0.0,
                               .rope_key_heads = rope_key_heads,
                               .layer = layer}};
}

}  // namespace

std::string_view op_class_name(OpClass c) {
  switch (c) {
    case OpClass::gemm:
      return "gemm";
    case OpClass::grouped_gemm:
      return "grouped_gemm";
    case OpClass::attention:
      return "attention";
    case OpClass::norm:
      return "norm";
    case OpClass::elementwise:
      return "elementwise";
    case OpClass::lookup:
      return "lookup";
  }
  return "";
}

std::string_view block_kind_name(BlockKind k) {
  switch (k) {
    case BlockKind::embedding:
      return "embedding";
    case BlockKind::dense:
      return "dense";
    case BlockKind::moe:
      return "moe";
    case BlockKind::head:
      return "head";
    case BlockKind::mtp:
      return "mtp";
  }
  return "";
}

bool counts_as_model_flops(OpClass c) {
  return c == OpClass::gemm || c == OpClass::grouped_gemm || c == OpClass::attention;
}

std::vector<LayerOp> attention_ops(const LlmSpec& m, const LayerKind& layer, const OpShape& s) {
  const double h = d(m.hidden);
  const double heads = d(m.heads);
  std::vector<LayerOp> ops{residual_norm("attn_norm", s, h)};
  if (const auto* mla = std::get_if<MlaSpec>(&m.attention)) {
    const double d_qk = d(mla->qk_nope_head_dim + mla->qk_rope_head_dim);
    const double d_v = d(mla->v_head_dim);
    if (mla->q_lora_rank > 0) {
      ops.push_back(gemm("q_down", s, h, d(mla->q_lora_rank)));
      ops.push_back(norm("q_norm", s, d(mla->q_lora_rank)));
      ops.push_back(gemm("q_up", s, d(mla->q_lora_rank), heads * d_qk, kColumn));
    } else {
      ops.push_back(gemm("q_proj", s, h, heads * d_qk, kColumn));
    }
    ops.push_back(gemm("kv_down", s, h, d(mla->kv_lora_rank + mla->qk_rope_head_dim)));
    ops.push_back(norm("kv_norm", s, d(mla->kv_lora_rank)));
    ops.push_back(gemm("kv_up", s, d(mla->kv_lora_rank),
                       heads * d(mla->qk_nope_head_dim + mla->v_head_dim), kColumn));
    ops.push_back(
        attention_core(s, layer, heads, d_qk, d_v, heads, d(mla->qk_rope_head_dim), 1));
    ops.push_back(gemm("o_proj", s, heads * d_v, h, kRow));
  } else {
    const auto& gqa = std::get<GqaSpec>(m.attention);
    const double hd = d(gqa.head_dim);
    ops.push_back(gemm("q_proj", s, h, heads * hd, kColumn));
    ops.push_back(gemm("kv_proj", s, h, 2.0 * d(gqa.kv_heads) * hd, kColumn));
    // GPT-2/3 learn absolute positions: no rotary embedding.
    const double rope = m.learned_positions > 0 ? 0.0 : hd;
    LayerOp core = attention_core(s, layer, heads, hd, hd, d(gqa.kv_heads), rope, d(gqa.kv_heads));
    if (m.attention_sinks) {
      core.params = core.active_params = heads;
    }
    ops.push_back(core);
    ops.push_back(gemm("o_proj", s, heads * hd, h, kRow));
  }
  return ops;
}

std::vector<LayerOp> dense_ffn_ops(const LlmSpec& m, const OpShape& s) {
  const double h = d(m.hidden);
  const double inter = d(m.ffn_inter_dim);
  if (m.ffn == FfnKind::gelu) {
    return {residual_norm("ffn_norm", s, h),
            in_ffn(gemm("ffn_up", s, h, inter, kColumn), FfnPart::in),
            in_ffn(gelu("ffn_gelu", s, inter), FfnPart::activation),
            in_ffn(gemm("ffn_down", s, inter, h, kRow), FfnPart::down)};
  }
  return {residual_norm("ffn_norm", s, h),
          in_ffn(gemm("ffn_gate_up", s, h, 2.0 * inter, kColumn), FfnPart::in),
          in_ffn(swiglu("ffn_act", s, s.tokens(), inter), FfnPart::activation),
          in_ffn(gemm("ffn_down", s, inter, h, kRow), FfnPart::down)};
}

std::vector<LayerOp> moe_ops(const LlmSpec& m, const OpShape& s) {
  const MoeSpec& moe = *m.moe;
  const double h = d(m.hidden);
  const double inter = d(moe.expert_inter_dim);
  const double experts = d(moe.routed_experts);
  const double k = d(moe.activated_experts);
  std::vector<LayerOp> ops{with_role(residual_norm("ffn_norm", s, h), MoeRole::gate_norm),
                           with_role(gemm("router", s, h, experts), MoeRole::router)};
  if (moe.shared_experts > 0) {
    const double shared = d(moe.shared_experts) * inter;
    ops.push_back(with_role(
        in_ffn(gemm("shared_gate_up", s, h, 2.0 * shared, kColumn), FfnPart::in), MoeRole::shared));
    ops.push_back(with_role(
        in_ffn(swiglu("shared_act", s, s.tokens(), shared), FfnPart::activation), MoeRole::shared));
    ops.push_back(
        with_role(in_ffn(gemm("shared_down", s, shared, h, kRow), FfnPart::down), MoeRole::shared));
  }
  // Routed experts: tokens x k rows spread over the experts, one grouped GEMM per projection.
  const double rows = s.tokens() * k;
  auto grouped = [&](std::string name, double in, double out, FfnPart part) {
    return with_role(
        in_ffn(matmul(std::move(name), OpClass::grouped_gemm, s, rows, in, out, experts, k), part),
        MoeRole::routed);
  };
  ops.push_back(grouped("experts_gate_up", h, 2.0 * inter, FfnPart::in));
  ops.push_back(with_role(in_ffn(swiglu("experts_act", s, rows, inter), FfnPart::activation),
                          MoeRole::routed));
  ops.push_back(grouped("experts_down", inter, h, FfnPart::down));
  return ops;
}

std::vector<LayerOp> layer_ops(const LlmSpec& m, int index, const OpShape& s) {
  const LayerKind layer = m.layer(index);
  auto ops = attention_ops(m, layer, s);
  auto ffn = layer.moe ? moe_ops(m, s) : dense_ffn_ops(m, s);
  ops.insert(ops.end(), ffn.begin(), ffn.end());
  return ops;
}

std::vector<LayerBlock> model_blocks(const LlmSpec& m, const OpShape& s) {
  const double h = d(m.hidden);
  const double vocab = d(m.vocab);
  std::vector<LayerBlock> blocks;
  blocks.push_back(
      LayerBlock{.kind = BlockKind::embedding,
                 .ops = {LayerOp{.name = "embedding",
                                 .op_class = OpClass::lookup,
                                 // each token's row read, the output written
                                 .forward_bytes = core::Bytes(2 * s.element_bytes * s.tokens() * h),
                                 .params = (vocab + d(m.learned_positions)) * h,
                                 .active_params = (vocab + d(m.learned_positions)) * h,
                                 .split = kColumn}}});
  for (int first = 0; first < m.layers;) {
    const LayerKind kind = m.layer(first);
    int last = first;
    while (last + 1 < m.layers && m.layer(last + 1) == kind) {
      ++last;
    }
    blocks.push_back(LayerBlock{.kind = kind.moe ? BlockKind::moe : BlockKind::dense,
                                .first_layer = first,
                                .last_layer = last,
                                .layer = kind,
                                .ops = layer_ops(m, first, s)});
    first = last + 1;
  }
  LayerOp head = gemm("head", s, h, vocab, kColumn);
  if (m.tied_embeddings) {
    head.params = 0;  // the embedding matrix, already counted
    head.active_params = 0;
  }
  blocks.push_back(LayerBlock{.kind = BlockKind::head, .ops = {norm("final_norm", s, h), head}});
  for (int i = 0; i < m.mtp_depth; ++i) {
    // An MTP module: norms of the hidden state and of the next token's embedding, a projection
    // of their concatenation back to `hidden`, then one transformer layer (embedding and head
    // are shared with the main model).
    std::vector<LayerOp> ops{norm("mtp_hidden_norm", s, h), norm("mtp_embed_norm", s, h),
                             gemm("mtp_proj", s, 2.0 * h, h)};
    auto layer = layer_ops(m, m.layers - 1, s);
    ops.insert(ops.end(), layer.begin(), layer.end());
    LayerOp mtp_head = gemm("mtp_head", s, h, vocab, kColumn);  // the shared head, run again
    mtp_head.params = 0;
    mtp_head.active_params = 0;
    ops.push_back(norm("mtp_final_norm", s, h));
    ops.push_back(mtp_head);
    blocks.push_back(LayerBlock{.kind = BlockKind::mtp, .ops = std::move(ops)});
  }
  return blocks;
}

}  // namespace codesim::llm
