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

struct ModelAnalytics {
  int seq_len = 0;
  double params_total = 0;   // main model: embedding, layers, final norm, head (no MTP)
  double params_active = 0;  // per token: the whole embedding and head, top-k routed experts
  double params_embedding = 0;
  double params_head = 0;
  double params_mtp = 0;                           // unique parameters of the MTP modules
  core::Bytes kv_cache_per_token;                  // BF16, all layers
  core::Flops forward_flops_per_token;             // causal, main model
  core::Flops training_flops_per_token;            // causal, main model
  core::Flops training_flops_per_token_noncausal;  // main model
  core::Flops training_flops_per_token_mtp;        // causal, MTP modules
  std::vector<LayerBlock> blocks;                  // causal, one sequence
};

// KV cache of one token over all layers in BF16: MLA caches the latent and the RoPE key,
// (kv_lora_rank + qk_rope_head_dim) x layers x 2 B; GQA caches K and V,
// 2 x kv_heads x head_dim x layers x 2 B.
core::Bytes kv_cache_bytes_per_token(const LlmSpec& m);

ModelAnalytics analyze(const LlmSpec& m, int seq_len);

}  // namespace codesim::llm
