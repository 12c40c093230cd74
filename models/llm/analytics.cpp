// Sums the op tables of model_blocks into whole-model figures.
#include "models/llm/analytics.hpp"

#include <algorithm>
#include <iterator>

namespace codesim::llm {
namespace {

constexpr double kBf16Bytes = 2.0;

struct BlockSums {
  double params = 0;
  double active_params = 0;
  double forward = 0;   // model FLOPs per sequence
  double training = 0;  // model FLOPs per sequence
};

BlockSums sum(const LayerBlock& b) {
  BlockSums s;
  for (const auto& op : b.ops) {
    s.params += op.params * b.count();
    s.active_params += op.active_params * b.count();
    if (counts_as_model_flops(op.op_class)) {
      s.forward += op.forward.value * b.count();
      s.training += op.training().value * b.count();
    }
  }
  return s;
}

// The model's distinct layer kinds in order of first appearance with their layer counts (with
// `attention_only`, told apart by their attention alone: moe unset).
std::vector<std::pair<LayerKind, int>> kind_counts(const LlmSpec& m, bool attention_only) {
  std::vector<std::pair<LayerKind, int>> kinds;
  for (int l = 0; l < m.layers; ++l) {
    LayerKind k = m.layer(l);
    k.moe = k.moe && !attention_only;
    auto it = std::find_if(kinds.begin(), kinds.end(), [&](const auto& e) { return e.first == k; });
    if (it == kinds.end()) {
      kinds.emplace_back(k, 0);
      it = std::prev(kinds.end());
    }
    ++it->second;
  }
  return kinds;
}

}  // namespace

core::Bytes kv_cache_bytes_per_token_layer(const LlmSpec& m) {
  double elements = 0;
  if (const auto* mla = std::get_if<MlaSpec>(&m.attention)) {
    elements = mla->kv_lora_rank + mla->qk_rope_head_dim;
  } else {
    const auto& gqa = std::get<GqaSpec>(m.attention);
    elements = 2.0 * gqa.kv_heads * gqa.head_dim;
  }
  return core::Bytes(elements * kBf16Bytes);
}

core::Bytes kv_cache_bytes_per_token(const LlmSpec& m) {
  return kv_cache_bytes_per_token_layer(m) * static_cast<double>(m.layers);
}

core::Bytes kv_cache_bytes(const LlmSpec& m, double context) {
  double tokens = 0;
  for (int l = 0; l < m.layers; ++l) {
    tokens += cached_tokens(m.layer(l), context);
  }
  return kv_cache_bytes_per_token_layer(m) * tokens;
}

std::vector<KvCacheOfKind> kv_cache_by_kind(const LlmSpec& m) {
  std::vector<KvCacheOfKind> kinds;
  for (const auto& [attention, layers] : kind_counts(m, true)) {
    kinds.push_back({attention, layers, kv_cache_bytes_per_token_layer(m)});
  }
  return kinds;
}

std::string layer_pattern(const LlmSpec& m) {
  std::string out;
  for (const auto& [k, n] : kind_counts(m, false)) {
    out += (out.empty() ? "" : "; ") + std::to_string(n) + (k.moe ? " MoE, " : " dense, ") +
           attention_name(k);
  }
  return out;
}

ModelAnalytics analyze(const LlmSpec& m, int seq_len) {
  ModelAnalytics a;
  a.seq_len = seq_len;
  a.kv_cache_per_token = kv_cache_bytes_per_token(m);
  a.kv_cache_by_kind = kv_cache_by_kind(m);
  a.params_vision = m.vision_params;
  const OpShape causal{.seq_len = seq_len, .micro_batch = 1, .causal = true};
  const OpShape full{.seq_len = seq_len, .micro_batch = 1, .causal = false};
  a.blocks = model_blocks(m, causal);
  const auto full_blocks = model_blocks(m, full);
  const double tokens = causal.tokens();

  double forward = 0;
  double training = 0;
  double training_full = 0;
  double training_mtp = 0;
  for (std::size_t i = 0; i < a.blocks.size(); ++i) {
    const BlockSums s = sum(a.blocks[i]);
    const BlockSums f = sum(full_blocks[i]);
    const auto& kind = a.blocks[i].kind;
    if (kind == BlockKind::mtp) {
      a.params_mtp += s.params;
      training_mtp += s.training;
      continue;
    }
    a.params_total += s.params;
    a.params_active += s.active_params;
    forward += s.forward;
    training += s.training;
    training_full += f.training;
    if (kind == BlockKind::embedding) {
      a.params_embedding += s.params;
    } else if (kind == BlockKind::head) {
      a.params_head += s.params;
    }
  }
  a.forward_flops_per_token = core::Flops(forward / tokens);
  a.training_flops_per_token = core::Flops(training / tokens);
  a.training_flops_per_token_noncausal = core::Flops(training_full / tokens);
  a.training_flops_per_token_mtp = core::Flops(training_mtp / tokens);
  return a;
}

}  // namespace codesim::llm
