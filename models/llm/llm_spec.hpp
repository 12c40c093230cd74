// Plain spec of a decoder-only transformer: attention (MLA or GQA), dense FFN or MoE.
#pragma once

#include <optional>
#include <string>
#include <variant>

namespace codesim::llm {

// Multi-head latent attention (DeepSeek-V2/V3). q_lora_rank = 0: queries are not compressed.
struct MlaSpec {
  int q_lora_rank = 0;
  int kv_lora_rank = 0;
  int qk_nope_head_dim = 0;
  int qk_rope_head_dim = 0;
  int v_head_dim = 0;

  bool operator==(const MlaSpec&) const = default;
};

// Grouped-query attention (LLaMA, Qwen): kv_heads key/value heads of head_dim each.
struct GqaSpec {
  int kv_heads = 0;
  int head_dim = 0;

  bool operator==(const GqaSpec&) const = default;
};

enum class ScoreFunction { softmax, sigmoid };

// The dense FFN: gated SwiGLU (LLaMA, Qwen, DeepSeek: gate and up projections, SiLU, down) or a
// plain GELU MLP (GPT-2/GPT-3: up, GELU, down).
enum class FfnKind { swiglu, gelu };

struct MoeSpec {
  int routed_experts = 0;
  int shared_experts = 0;
  int activated_experts = 0;  // top-k routed experts per token
  int expert_inter_dim = 0;   // SwiGLU width of one expert
  int expert_groups = 1;      // groups for group-limited routing
  int limited_groups = 1;     // groups a token may reach
  double route_scale = 1.0;
  ScoreFunction score = ScoreFunction::softmax;

  bool operator==(const MoeSpec&) const = default;
};

struct LlmSpec {
  std::string name;
  int hidden = 0;
  int layers = 0;
  int heads = 0;
  int vocab = 0;
  int ffn_inter_dim = 0;  // width of the dense FFN (SwiGLU's gate and up, or GELU's hidden)
  FfnKind ffn = FfnKind::swiglu;
  int dense_layers = 0;   // the first dense_layers use the dense FFN; all do without `moe`
  std::variant<MlaSpec, GqaSpec> attention;
  std::optional<MoeSpec> moe;
  int mtp_depth = 0;             // multi-token-prediction modules trained with the model
  bool tied_embeddings = false;  // output head shares the embedding matrix
  int learned_positions = 0;     // GPT-2/3: a learned position embedding of this many rows

  bool operator==(const LlmSpec&) const = default;
  bool is_moe_layer(int index) const { return moe.has_value() && index >= dense_layers; }
};

}  // namespace codesim::llm
