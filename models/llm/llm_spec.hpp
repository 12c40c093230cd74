// Plain spec of a decoder-only transformer: attention (MLA or GQA), dense FFN or MoE.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

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

// How far back a layer's attention reaches: every earlier token, the last `window` tokens
// (sliding: Mistral, Gemma 2/3, gpt-oss), or the earlier tokens of its own aligned chunk of
// `window` tokens (chunked: Llama 4's RoPE layers).
enum class AttentionSpan { full, sliding, chunked };

// What may differ from one transformer layer to the next.
struct LayerKind {
  bool moe = false;  // the MoE FFN (with LlmSpec::moe); else the dense FFN
  AttentionSpan span = AttentionSpan::full;
  int window = 0;    // tokens, for the sliding and chunked spans
  bool rope = true;  // rotary embedding of queries and keys (Llama 4's NoPE layers: none)

  bool operator==(const LayerKind&) const = default;
};

// The layers of a DeepSeek-V3-shaped model, attending fully: the dense FFN, or the MoE (where
// the model has one).
inline constexpr LayerKind kDenseLayer{};
inline constexpr LayerKind kMoeLayer{.moe = true};

// Keys a query attends to on average, over a sequence of seq_len tokens: causal, the lower
// triangle (i + 1 keys for query i), limited to the window (sliding: min(i + 1, w); chunked:
// (i mod w) + 1); not causal, every key of the sequence (of the window or chunk).
double attended_keys(const LayerKind& layer, int seq_len, bool causal);

// Tokens of a context of `context` tokens whose K and V a layer keeps (sliding: the last
// window; chunked: at most its current chunk).
double cached_tokens(const LayerKind& layer, double context);

// A short name: "full", "sliding 4096", "chunked 8192", with ", no RoPE" where so.
std::string attention_name(const LayerKind& layer);

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
  // One kind per layer where layers differ beyond DeepSeek's dense prefix (MoE every other layer,
  // sliding or chunked attention); empty: layers from dense_layers on are MoE (with `moe`) and
  // every layer attends fully. Where set, dense_layers counts the leading dense layers.
  std::vector<LayerKind> layer_kinds;
  bool attention_sinks = false;  // gpt-oss: one learned logit per head in the softmax
  // A vision tower's and its projector's parameters (Llama 4, Gemma 3): counted in the totals
  // publishers give, not simulated.
  double vision_params = 0;

  bool operator==(const LlmSpec&) const = default;
  LayerKind layer(int index) const;
  bool is_moe_layer(int index) const { return layer(index).moe; }
  int moe_layer_count() const;
};

}  // namespace codesim::llm
