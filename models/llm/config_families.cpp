// One reader per Hugging Face model family, and the table that names them. Each reader reads the
// keys that set the shapes (its family's meaning of them: which width is an expert's, which layers
// are MoE, which slide), lists the keys known not to change them, and refuses the rest.
// Defaults are the family's configuration class's in Hugging Face transformers.
#include "models/llm/config_families.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "models/llm/config_parts.hpp"
#include "models/llm/vision_towers.hpp"

namespace codesim::llm {
namespace {

using std::nullopt;
using Keys = std::initializer_list<std::string_view>;

// Keys of every Hugging Face config that do not change the simulated shapes: identity,
// numerics, token ids, position encoding's constants, context length, training-time options,
// and the checkpoint's storage precision (the scenario sets the precisions codesim simulates).
constexpr std::array<std::string_view, 31> kCommon = {
    "architectures",         "model_type",           "torch_dtype",
    "dtype",                 "transformers_version", "_name_or_path",
    "auto_map",              "bos_token_id",         "eos_token_id",
    "pad_token_id",          "initializer_range",    "rms_norm_eps",
    "layer_norm_eps",        "rope_theta",           "rope_scaling",
    "rope_parameters",       "max_position_embeddings", "use_cache",
    "attention_dropout",     "hidden_dropout",       "output_router_logits",
    "router_aux_loss_coef",  "quantization_config",  "attention_bias",
    "mlp_bias",              "pretraining_tp",       "tokenizer_class",
    "use_bfloat16",          "cache_implementation", "original_max_position_embeddings",
    "router_jitter_noise"};

void ignore(ConfigReader& r, Keys keys) {
  r.ignore(std::span<const std::string_view>(keys.begin(), keys.size()));
}

// Refuses what `r` left unread, in `what` ("a llama config").
void finish(ConfigReader& r, const std::string& what) {
  r.ignore(kCommon);
  r.refuse_unread(what,
                  "codesim does not know whether it changes the model's shapes; remove it if it "
                  "does not");
}

// Llama 2/3/3.1/3.2 and the dense families of its shape: GQA, a gated FFN of intermediate_size.
void read_dense(ConfigReader& r, LlmSpec& m) {
  read_trunk(r, m, false);
  read_gqa(r, m);
  read_gated_activation(r, "hidden_act");
  m.ffn_inter_dim = r.integer("intermediate_size", 1, nullopt);
}

// Mistral, Phi-3: a sliding window on every layer (null: none).
void read_mistral(ConfigReader& r, LlmSpec& m) {
  read_dense(r, m);
  auto kinds = uniform_layers(m);
  slide_layers(kinds, r.integer("sliding_window", 1, 0), [](int) { return true; });
  set_layer_kinds(m, std::move(kinds));
  ignore(r, {"partial_rotary_factor", "resid_pdrop", "embd_pdrop", "lm_head_bias"});
}

// Qwen2/Qwen3 (and their MoE): the window only where use_sliding_window is set, on the layers
// from max_window_layers on; a layer_types list overrides.
void qwen_windows(ConfigReader& r, std::vector<LayerKind>& kinds) {
  const int window = r.integer("sliding_window", 1, 0);
  const bool use = r.boolean("use_sliding_window", false);
  const int from = r.integer("max_window_layers", 0, 0);
  if (!read_layer_types(r, window, kinds) && use) {
    slide_layers(kinds, window, [&](int i) { return i >= from; });
  }
}

void read_qwen(ConfigReader& r, LlmSpec& m) {
  read_dense(r, m);
  auto kinds = uniform_layers(m);
  qwen_windows(r, kinds);
  set_layer_kinds(m, std::move(kinds));
}

// Qwen2-MoE and Qwen3-MoE: num_experts experts of moe_intermediate_size (Qwen2-MoE: plus a
// shared expert of shared_expert_intermediate_size, behind a one-channel gate), MoE on the layers
// (i + 1) % decoder_sparse_step == 0 outside mlp_only_layers, which use intermediate_size.
void read_qwen_moe(ConfigReader& r, LlmSpec& m, bool shared_expert) {
  read_dense(r, m);
  const int experts = r.integer("num_experts", 0, nullopt);
  const int top_k = r.integer("num_experts_per_tok", 1, nullopt);
  const int width = r.integer("moe_intermediate_size", 1, nullopt);
  int shared = 0;
  if (shared_expert) {
    const int shared_width = r.integer("shared_expert_intermediate_size", 0, 0);
    shared = width > 0 ? shared_width / width : 0;
    if (width > 0 && shared_width % width != 0) {
      r.error("shared_expert_intermediate_size",
              "must be a multiple of moe_intermediate_size (" + std::to_string(width) + "), got " +
                  std::to_string(shared_width),
              "codesim models a shared expert as whole experts of the routed width");
    }
  }
  if (experts > 0) {
    m.moe = plain_moe(experts, top_k, width, shared);
    check_moe(r, *m.moe, {.experts = "num_experts", .top_k = "num_experts_per_tok"});
  }
  const int step = r.integer("decoder_sparse_step", 1, 1);
  auto kinds = uniform_layers(m);
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    kinds[i].moe = (static_cast<int>(i) + 1) % std::max(1, step) == 0;
  }
  for (const long long i : r.integers("mlp_only_layers")) {
    if (i >= 0 && i < static_cast<long long>(kinds.size())) {
      kinds[static_cast<std::size_t>(i)].moe = false;
    } else {
      r.error("mlp_only_layers", "names layer " + std::to_string(i) + ", the model has " +
                                     std::to_string(kinds.size()) + " layers");
    }
  }
  qwen_windows(r, kinds);
  set_layer_kinds(m, std::move(kinds));
  ignore(r, {"norm_topk_prob", "qkv_bias"});
}

void read_qwen2_moe(ConfigReader& r, LlmSpec& m) {
  read_qwen_moe(r, m, true);
}

void read_qwen3_moe(ConfigReader& r, LlmSpec& m) {
  read_qwen_moe(r, m, false);
}

// Mixtral and Phi-3.5-MoE: num_local_experts experts of intermediate_size on every layer.
void read_mixtral(ConfigReader& r, LlmSpec& m) {
  read_dense(r, m);
  const int experts = r.integer("num_local_experts", 1, nullopt);
  const int top_k = r.integer("num_experts_per_tok", 1, nullopt);
  m.moe = plain_moe(experts, top_k, m.ffn_inter_dim);
  check_moe(r, *m.moe, {.experts = "num_local_experts", .top_k = "num_experts_per_tok"});
  auto kinds = uniform_layers(m);
  for (auto& k : kinds) {
    k.moe = true;
  }
  slide_layers(kinds, r.integer("sliding_window", 1, 0), [](int) { return true; });
  set_layer_kinds(m, std::move(kinds));
  ignore(r, {"input_jitter_noise", "lm_head_bias", "resid_pdrop", "embd_pdrop"});
}

// OLMoE: num_experts experts of intermediate_size on every layer.
void read_olmoe(ConfigReader& r, LlmSpec& m) {
  read_dense(r, m);
  const int experts = r.integer("num_experts", 1, nullopt);
  const int top_k = r.integer("num_experts_per_tok", 1, nullopt);
  m.moe = plain_moe(experts, top_k, m.ffn_inter_dim);
  m.dense_layers = 0;
  ignore(r, {"norm_topk_prob", "clip_qkv"});
}

// DeepSeek-V2/V3, Kimi K2 (DeepSeek-V3's shapes) and GLM-4.5 (GQA instead of MLA): routed
// experts in groups with shared ones, MoE from first_k_dense_replace on every moe_layer_freq-th
// layer, MTP modules.
void read_deepseek_style(ConfigReader& r, LlmSpec& m) {
  read_trunk(r, m, false);
  read_gated_activation(r, "hidden_act");
  m.ffn_inter_dim = r.integer("intermediate_size", 1, nullopt);
  if (r.has("kv_lora_rank")) {
    // null: queries not compressed; absent: the configuration class's default, 1536.
    const int q_lora = r.is_null("q_lora_rank") ? 0 : r.integer("q_lora_rank", 0, 1536);
    m.attention = MlaSpec{.q_lora_rank = q_lora,
                          .kv_lora_rank = r.integer("kv_lora_rank", 1, nullopt),
                          .qk_nope_head_dim = r.integer("qk_nope_head_dim", 1, nullopt),
                          .qk_rope_head_dim = r.integer("qk_rope_head_dim", 1, nullopt),
                          .v_head_dim = r.integer("v_head_dim", 1, nullopt)};
    r.integer("num_key_value_heads", 1, 0);  // MLA: every head its own (the latent is shared)
  } else {
    read_gqa(r, m);
  }
  MoeSpec moe = plain_moe(r.integer("n_routed_experts", 1, nullopt),
                          r.integer("num_experts_per_tok", 1, nullopt),
                          r.integer("moe_intermediate_size", 1, nullopt),
                          r.integer("n_shared_experts", 0, 0));
  moe.expert_groups = r.integer("n_group", 1, 1);
  moe.limited_groups = r.integer("topk_group", 1, 1);
  moe.route_scale = r.number("routed_scaling_factor", 1.0);
  moe.score = read_score(r, "scoring_func");
  check_moe(r, moe, {.experts = "n_routed_experts", .top_k = "num_experts_per_tok",
                     .groups = "n_group", .limited = "topk_group"});
  m.moe = moe;
  const int first = r.integer("first_k_dense_replace", 0, 0);
  const int freq = r.integer("moe_layer_freq", 1, 1);
  if (m.layers > 0 && first > m.layers) {  // (0: num_hidden_layers already refused)
    r.error("first_k_dense_replace",
            "exceeds num_hidden_layers (" + std::to_string(m.layers) + ")");
  }
  auto kinds = uniform_layers(m);
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    kinds[i].moe = static_cast<int>(i) >= first && static_cast<int>(i) % std::max(1, freq) == 0;
  }
  set_layer_kinds(m, std::move(kinds));
  m.mtp_depth = r.integer("num_nextn_predict_layers", 0, 0);
  // Routing details (how the top-k is picked and normalized, the balancing loss), the rotary
  // share of a GLM head (the rotary kernel's bytes only) and its QK norm (a few kernels).
  ignore(r, {"topk_method", "norm_topk_prob", "aux_loss_alpha", "seq_aux", "ep_size",
             "partial_rotary_factor", "use_qk_norm", "rope_interleave"});
}


// GLM-4.5: DeepSeek-V3's MoE with GQA; its router scores by sigmoid (its config has no
// scoring_func).
void read_glm4_moe(ConfigReader& r, LlmSpec& m) {
  const bool named = r.has("scoring_func");
  read_deepseek_style(r, m);
  if (!named && m.moe) {
    m.moe->score = ScoreFunction::sigmoid;
  }
}

// gpt-oss: num_local_experts experts of intermediate_size on every layer, layer_types of sliding
// (sliding_window) and full attention (default: alternating, sliding first), attention sinks.
void read_gpt_oss(ConfigReader& r, LlmSpec& m) {
  read_dense(r, m);
  const int experts = r.integer("num_local_experts", 1, nullopt);
  const int top_k = r.integer("num_experts_per_tok", 1, nullopt);
  m.moe = plain_moe(experts, top_k, m.ffn_inter_dim);
  m.attention_sinks = true;
  auto kinds = uniform_layers(m);
  for (auto& k : kinds) {
    k.moe = true;
  }
  const int window = r.integer("sliding_window", 1, 128);
  if (!read_layer_types(r, window, kinds)) {
    slide_layers(kinds, window, [](int i) { return i % 2 == 0; });
  }
  set_layer_kinds(m, std::move(kinds));
  // experts_per_token repeats num_experts_per_tok; swiglu_limit clamps the activation;
  // initial_context_length is YaRN's.
  ignore(r, {"experts_per_token", "swiglu_limit", "initial_context_length"});
}

// Gemma 1/2/3: head tied to the embedding; Gemma 2 slides on even layers, Gemma 3 on all but
// every sliding_window_pattern-th (or as layer_types says).
void read_gemma_text(ConfigReader& r, LlmSpec& m, int generation) {
  read_trunk(r, m, true);
  read_gqa(r, m);
  read_gated_activation(r, "hidden_activation");
  read_gated_activation(r, "hidden_act");
  m.ffn_inter_dim = r.integer("intermediate_size", 1, nullopt);
  auto kinds = uniform_layers(m);
  const int window = generation > 1 ? r.integer("sliding_window", 1, 4096) : 0;
  const int pattern = generation == 3 ? r.integer("sliding_window_pattern", 1, 6) : 2;
  if (generation > 1 && !read_layer_types(r, window, kinds)) {
    slide_layers(kinds, window, [&](int i) {
      // (A pattern below 1 is refused by its read; no layer is taken for it meanwhile.)
      return generation == 2 ? i % 2 == 0 : pattern > 0 && (i + 1) % pattern != 0;
    });
  }
  set_layer_kinds(m, std::move(kinds));
  // Logit soft-capping and the query scale are elementwise; Gemma 3's local RoPE base.
  ignore(r, {"final_logit_softcapping", "attn_logit_softcapping", "query_pre_attn_scalar",
             "rope_local_base_freq", "use_bidirectional_attention"});
}

void read_gemma(ConfigReader& r, LlmSpec& m) {
  read_gemma_text(r, m, 1);
}
void read_gemma2(ConfigReader& r, LlmSpec& m) {
  read_gemma_text(r, m, 2);
}
void read_gemma3_text(ConfigReader& r, LlmSpec& m) {
  read_gemma_text(r, m, 3);
}

// Gemma 3 with its vision tower: the text model under text_config (the tower is not simulated).
void read_gemma3(ConfigReader& r, LlmSpec& m) {
  ConfigReader text = r.nested("text_config");
  read_gemma_text(text, m, 3);
  finish(text, "the text_config of a gemma3 config");
  if (r.has("vision_config")) {
    ConfigReader vision = r.nested("vision_config");
    m.vision_params = siglip_vision_params(vision, m.hidden);
    ignore(vision, {"hidden_act", "layer_norm_eps", "num_attention_heads", "vision_use_head",
                    "attention_dropout"});
    finish(vision, "the vision_config of a gemma3 config");
  }
  ignore(r, {"mm_tokens_per_image", "boi_token_index", "eoi_token_index", "image_token_index"});
}

// Llama 4's text model: num_local_experts routed experts of intermediate_size and one shared
// expert of the same width on the layers moe_layers names (default: every
// interleave_moe_layer_step-th, counting from 1), the others a dense FFN of intermediate_size_mlp;
// RoPE on the layers no_rope_layers marks 1 (default: all but every 4th), which attend within
// chunks of attention_chunk_size, the NoPE layers to the whole sequence.
void read_llama4_text(ConfigReader& r, LlmSpec& m) {
  read_trunk(r, m, false);
  read_gqa(r, m);
  read_gated_activation(r, "hidden_act");
  const int width = r.integer("intermediate_size", 1, nullopt);
  m.ffn_inter_dim = r.integer("intermediate_size_mlp", 1, nullopt);
  const int experts = r.integer("num_local_experts", 1, nullopt);
  const int top_k = r.integer("num_experts_per_tok", 1, nullopt);
  m.moe = plain_moe(experts, top_k, width, 1);
  m.moe->score = ScoreFunction::sigmoid;
  auto kinds = uniform_layers(m);
  if (!read_layer_list(r, "moe_layers", kinds, true)) {
    const int step = r.integer("interleave_moe_layer_step", 1, 1);
    for (std::size_t i = 0; i < kinds.size(); ++i) {
      kinds[i].moe = (static_cast<int>(i) + 1) % std::max(1, step) == 0;  // (0: refused)
    }
  } else {
    r.integer("interleave_moe_layer_step", 1, 1);  // moe_layers says it
  }
  const auto rope = r.integers("no_rope_layers");
  if (!rope.empty() && rope.size() != kinds.size()) {
    r.error("no_rope_layers", "lists " + std::to_string(rope.size()) +
                                  " layers, the model has " + std::to_string(kinds.size()));
  }
  const int chunk = r.integer("attention_chunk_size", 1, 0);
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    kinds[i].rope = rope.size() == kinds.size() ? rope[i] != 0 : (i + 1) % 4 != 0;
    if (kinds[i].rope && chunk > 0) {
      kinds[i].span = AttentionSpan::chunked;
      kinds[i].window = chunk;
    }
  }
  set_layer_kinds(m, std::move(kinds));
  // Attention temperature tuning and QK norm are elementwise.
  ignore(r, {"attn_scale", "attn_temperature_tuning", "floor_scale", "use_qk_norm",
             "for_llm_compressor", "layer_types"});
}

void read_llama4(ConfigReader& r, LlmSpec& m) {
  ConfigReader text = r.nested("text_config");
  read_llama4_text(text, m);
  finish(text, "the text_config of a llama4 config");
  if (r.has("vision_config")) {
    ConfigReader vision = r.nested("vision_config");
    m.vision_params = llama4_vision_params(vision, m.hidden);
    ignore(vision, {"hidden_act", "norm_eps", "num_attention_heads", "multi_modal_projector_bias",
                    "projector_dropout", "vision_feature_layer", "vision_feature_select_strategy",
                    "attention_dropout"});
    finish(vision, "the vision_config of a llama4 config");
  }
  ignore(r, {"boi_token_index", "eoi_token_index", "image_token_index", "tie_word_embeddings"});
}


// GPT-2: n_inner null means 4 x n_embd; a GELU MLP, learned positions, the head tied.
void read_gpt2(ConfigReader& r, LlmSpec& m) {
  m.hidden = r.integer("n_embd", 1, nullopt);
  m.layers = r.integer("n_layer", 1, nullopt, kMaxLayers);
  m.heads = r.integer("n_head", 1, nullopt);
  m.vocab = r.integer("vocab_size", 1, nullopt);
  m.ffn_inter_dim = r.integer("n_inner", 1, 4 * m.hidden);
  m.learned_positions = r.integer("n_positions", 1, nullopt);
  m.tied_embeddings = r.boolean("tie_word_embeddings", true);
  m.ffn = FfnKind::gelu;
  m.attention = GqaSpec{.kv_heads = m.heads, .head_dim = m.heads > 0 ? m.hidden / m.heads : 0};
  static constexpr std::array<std::string_view, 5> kGelu = {"gelu", "gelu_new", "gelu_fast",
                                                           "gelu_pytorch_tanh", "relu"};
  r.choice("activation_function", kGelu, "gelu_new");
  ignore(r, {"n_ctx", "attn_pdrop", "embd_pdrop", "resid_pdrop", "layer_norm_epsilon",
             "scale_attn_weights", "scale_attn_by_inverse_layer_idx", "reorder_and_upcast_attn",
             "summary_type", "summary_use_proj", "summary_activation", "summary_proj_to_labels",
             "summary_first_dropout", "task_specific_params", "add_cross_attention"});
}

// DBRX: d_model, n_heads, n_layers; attention and FFN under attn_config and ffn_config.
void read_dbrx(ConfigReader& r, LlmSpec& m) {
  m.hidden = r.integer("d_model", 1, nullopt);
  m.heads = r.integer("n_heads", 1, nullopt);
  m.layers = r.integer("n_layers", 1, nullopt, kMaxLayers);
  m.vocab = r.integer("vocab_size", 1, nullopt);
  m.tied_embeddings = r.boolean("tie_word_embeddings", false);
  ConfigReader attn = r.nested("attn_config");
  const int kv_heads = attn.integer("kv_n_heads", 1, 1);
  m.attention = GqaSpec{.kv_heads = kv_heads, .head_dim = m.heads > 0 ? m.hidden / m.heads : 0};
  ignore(attn, {"clip_qkv", "rope_theta", "attn_pdrop", "model_type"});
  finish(attn, "the attn_config of a dbrx config");
  ConfigReader ffn = r.nested("ffn_config");
  m.ffn_inter_dim = ffn.integer("ffn_hidden_size", 1, nullopt);
  m.moe = plain_moe(ffn.integer("moe_num_experts", 1, nullopt), ffn.integer("moe_top_k", 1, nullopt),
                    m.ffn_inter_dim);
  m.dense_layers = 0;
  ignore(ffn, {"moe_jitter_eps", "moe_loss_weight", "moe_normalize_expert_weights", "ffn_act_fn",
               "moe_weight_parallelism", "moe_weight_decay", "uniform_expert_assignment",
               "model_type"});
  finish(ffn, "the ffn_config of a dbrx config");
  ignore(r, {"max_seq_len", "resid_pdrop", "emb_pdrop"});
}

constexpr std::array kFamilies = {
    ConfigFamily{"dbrx", "DbrxForCausalLM", read_dbrx},
    ConfigFamily{"deepseek_v2", "DeepseekV2ForCausalLM", read_deepseek_style},
    ConfigFamily{"deepseek_v3", "DeepseekV3ForCausalLM", read_deepseek_style},
    ConfigFamily{"gemma", "GemmaForCausalLM", read_gemma},
    ConfigFamily{"gemma2", "Gemma2ForCausalLM", read_gemma2},
    ConfigFamily{"gemma3", "Gemma3ForConditionalGeneration", read_gemma3},
    ConfigFamily{"gemma3_text", "Gemma3ForCausalLM", read_gemma3_text},
    ConfigFamily{"glm4_moe", "Glm4MoeForCausalLM", read_glm4_moe},
    ConfigFamily{"gpt2", "GPT2LMHeadModel", read_gpt2},
    ConfigFamily{"gpt_oss", "GptOssForCausalLM", read_gpt_oss},
    ConfigFamily{"kimi_k2", "", read_deepseek_style},
    ConfigFamily{"llama", "LlamaForCausalLM", read_dense},
    ConfigFamily{"llama4", "Llama4ForConditionalGeneration", read_llama4},
    ConfigFamily{"llama4_text", "Llama4ForCausalLM", read_llama4_text},
    ConfigFamily{"mistral", "MistralForCausalLM", read_mistral},
    ConfigFamily{"mixtral", "MixtralForCausalLM", read_mixtral},
    ConfigFamily{"olmo2", "Olmo2ForCausalLM", read_dense},
    ConfigFamily{"olmoe", "OlmoeForCausalLM", read_olmoe},
    ConfigFamily{"phi3", "Phi3ForCausalLM", read_mistral},
    ConfigFamily{"phimoe", "PhiMoEForCausalLM", read_mixtral},
    ConfigFamily{"qwen2", "Qwen2ForCausalLM", read_qwen},
    ConfigFamily{"qwen2_moe", "Qwen2MoeForCausalLM", read_qwen2_moe},
    ConfigFamily{"qwen3", "Qwen3ForCausalLM", read_qwen},
    ConfigFamily{"qwen3_moe", "Qwen3MoeForCausalLM", read_qwen3_moe},
};

}  // namespace

std::span<const ConfigFamily> config_families() {
  return kFamilies;
}

const ConfigFamily* find_config_family(std::string_view model_type) {
  const auto it = std::find_if(kFamilies.begin(), kFamilies.end(),
                               [&](const ConfigFamily& f) { return f.model_type == model_type; });
  return it == kFamilies.end() ? nullptr : &*it;
}

const ConfigFamily* config_family_of_architecture(std::string_view architecture) {
  const auto it = std::find_if(kFamilies.begin(), kFamilies.end(), [&](const ConfigFamily& f) {
    return !f.architecture.empty() && f.architecture == architecture;
  });
  return it == kFamilies.end() ? nullptr : &*it;
}

void read_config_family(const ConfigFamily& family, ConfigReader& r, LlmSpec& m) {
  family.read(r, m);
  if (!m.moe) {
    m.dense_layers = m.layers;  // the catalog's convention for a dense model
  }
  finish(r, "a " + std::string(family.model_type) + " config");
}

std::string config_family_names() {
  std::string names;
  for (const auto& f : kFamilies) {
    names += (names.empty() ? "" : ", ") + std::string(f.model_type);
  }
  return names;
}

}  // namespace codesim::llm
