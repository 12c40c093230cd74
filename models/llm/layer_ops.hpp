// The operations of each part of a model (MLA/GQA attention, dense FFN, MoE, head, MTP) with
// FLOPs and bytes for forward, input backward and weight backward.
#pragma once

#include <string>
#include <vector>

#include "models/llm/llm_spec.hpp"
#include "sim/core/units.hpp"

namespace codesim::llm {

enum class OpClass { gemm, grouped_gemm, attention, norm, elementwise, lookup };
std::string_view op_class_name(OpClass c);

// Whether an op class counts toward model FLOPs (the counting convention of analytics.hpp):
// matrix products only, i.e. GEMMs, expert GEMMs and the two products of attention.
bool counts_as_model_flops(OpClass c);

// What the ops are computed for: micro_batch sequences of seq_len tokens.
struct OpShape {
  int seq_len = 4096;
  int micro_batch = 1;
  bool causal = true;     // attention over the lower triangle only
  int element_bytes = 2;  // activations and weights in HBM (BF16)

  double tokens() const { return static_cast<double>(seq_len) * micro_batch; }
};

// A GEMM's shape: `rows` x `in` inputs times `groups` weight matrices of `in` x `out` (grouped
// expert GEMMs: the rows are spread over the groups).
struct GemmDims {
  double rows = 0;
  double in = 0;
  double out = 0;
  double groups = 1;
};

// Attention's core: heads of query/key and value dimensions (MLA: nope + rope, v), the heads K
// and V are stored for (GQA: fewer), and the rotary part of a head with the key heads it is
// applied to (MLA: one shared rotary key).
struct AttentionDims {
  double heads = 0;
  double kv_heads = 0;
  double d_qk = 0;
  double d_v = 0;
  double rope = 0;
  double rope_key_heads = 0;
  LayerKind layer;  // the layer's span and window
};

// How tensor parallelism splits an op's weights (Megatron's layout): by output columns, by input
// rows, or not at all (norms, MLA's low-rank down projections, the router, the MTP projection;
// routed experts are spread by expert parallelism instead).
enum class TensorSplit { none, column, row };

// The part an op plays in a MoE layer: the FFN norm and the router (dispatch waits for them, so
// the attention piece runs them), the shared experts, the routed experts (spread over expert
// parallelism, their tokens arriving by dispatch).
enum class MoeRole { none, gate_norm, router, shared, routed };

// Where an op sits in an FFN (dense, shared or routed experts): its first projection (gate + up,
// or up), the activation between, its down projection (whose input the activation writes).
enum class FfnPart { none, in, activation, down };

// Set where each op is created; what the step and its pricing read instead of the op's name.
struct LayerOp {
  std::string name;  // for reports and kernel names only
  OpClass op_class = OpClass::gemm;
  core::Flops forward;
  core::Flops backward_input;   // gradient w.r.t. the op's input (and attention's Q, K, V)
  core::Flops backward_weight;  // gradient w.r.t. the op's weights
  core::Bytes forward_bytes;    // HBM traffic of the forward: weights + inputs + outputs
  double params = 0;            // weights the op holds
  double active_params = 0;     // weights one token uses (routed experts: top-k of them)
  GemmDims gemm;                // GEMMs; norms and activations: rows x in elements
  AttentionDims attention;      // the attention core
  TensorSplit split = TensorSplit::none;
  MoeRole moe = MoeRole::none;
  FfnPart ffn = FfnPart::none;
  // A norm of the residual stream: a layer's attention and FFN norms, each right after a
  // residual add (a fused stack runs the add inside the norm).
  bool residual_stream = false;

  core::Flops training() const { return forward + backward_input + backward_weight; }
  // A routed expert's op (its parameters are split over expert parallelism).
  bool routed_expert() const { return moe == MoeRole::routed; }
};

enum class BlockKind { embedding, dense, moe, head, mtp };
std::string_view block_kind_name(BlockKind k);  // "embedding", "dense", "moe", "head", "mtp"

// A run of identical layers (or the embedding, head or MTP block) and its ops.
struct LayerBlock {
  BlockKind kind = BlockKind::dense;
  int first_layer = -1;  // transformer layer indices [first, last]; -1 outside the stack
  int last_layer = -1;
  LayerKind layer;       // the kind of each of its layers
  std::vector<LayerOp> ops;

  int count() const { return first_layer < 0 ? 1 : last_layer - first_layer + 1; }
};

// The attention of a layer of kind `layer` (its span and window set the attended keys).
std::vector<LayerOp> attention_ops(const LlmSpec& m, const LayerKind& layer, const OpShape& s);
std::vector<LayerOp> dense_ffn_ops(const LlmSpec& m, const OpShape& s);
std::vector<LayerOp> moe_ops(const LlmSpec& m, const OpShape& s);
// One transformer layer: attention then the dense FFN or the MoE of layer `index`.
std::vector<LayerOp> layer_ops(const LlmSpec& m, int index, const OpShape& s);

// Embedding, the transformer layers in runs of consecutive layers of one kind (DeepSeek-V3: its
// dense layers, then its MoE layers), output head, then the MTP modules if any.
std::vector<LayerBlock> model_blocks(const LlmSpec& m, const OpShape& s);

}  // namespace codesim::llm
