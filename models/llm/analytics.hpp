// Whole-model figures: parameters, KV cache per token, training FLOPs per token.
//
// Counting convention (one for every model): model FLOPs are the FLOPs of matrix products only
// (GEMMs, expert GEMMs, attention's Q K^T and P V), forward + input backward + weight backward
// (= 3 x forward), over the transformer layers and the output head, at the given sequence length.
// Causal attention counts seq_len/2 keys per query (the lower triangle), non-causal seq_len.
// Embedding lookups, norms and activations are not counted. MTP modules are reported apart.
#pragma once

#include <vector>

#include "models/llm/layer_ops.hpp"
#include "models/llm/llm_spec.hpp"
#include "sim/core/units.hpp"

namespace codesim::llm {

// The KV cache of the layers of one attention kind (span and window).
struct KvCacheOfKind {
  LayerKind attention;          // its span, window and RoPE (moe not set)
  int layers = 0;               // layers of this kind
  core::Bytes per_token_layer;  // one token in one layer, BF16
};

struct ModelAnalytics {
  int seq_len = 0;
  double params_total = 0;   // main model: embedding, layers, final norm, head (no MTP)
  double params_active = 0;  // per token: the whole embedding and head, top-k routed experts
  double params_embedding = 0;
  double params_head = 0;
  double params_mtp = 0;                           // unique parameters of the MTP modules
  double params_vision = 0;                        // a vision tower's, not simulated
  core::Bytes kv_cache_per_token;                  // BF16, all layers (a token in every window)
  std::vector<KvCacheOfKind> kv_cache_by_kind;     // in order of first appearance
  core::Flops forward_flops_per_token;             // causal, main model
  core::Flops training_flops_per_token;            // causal, main model
  core::Flops training_flops_per_token_noncausal;  // main model
  core::Flops training_flops_per_token_mtp;        // causal, MTP modules
  std::vector<LayerBlock> blocks;                  // causal, one sequence
};

// KV cache of one token in one layer in BF16: MLA caches the latent and the RoPE key,
// (kv_lora_rank + qk_rope_head_dim) x 2 B; GQA caches K and V, 2 x kv_heads x head_dim x 2 B.
core::Bytes kv_cache_bytes_per_token_layer(const LlmSpec& m);

// KV cache of one token over all layers (per_token_layer x layers): what a token costs while it
// is within every layer's window.
core::Bytes kv_cache_bytes_per_token(const LlmSpec& m);

// KV cache of one sequence of `context` tokens: each layer keeps its cached_tokens of it.
core::Bytes kv_cache_bytes(const LlmSpec& m, double context);

// The model's layers grouped by attention kind, with their KV cache per token.
std::vector<KvCacheOfKind> kv_cache_by_kind(const LlmSpec& m);

// The layers by kind in order of first appearance: "3 dense, full; 58 MoE, full" (DeepSeek-V3),
// "12 MoE, sliding 128; 12 MoE, full" (gpt-oss-20b).
std::string layer_pattern(const LlmSpec& m);

ModelAnalytics analyze(const LlmSpec& m, int seq_len);

}  // namespace codesim::llm
