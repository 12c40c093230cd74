// A layer's saved tensors by stack.
#include "sim/workload/saved_tensors.hpp"

#include <numeric>
#include <variant>

#include "sim/workload/tensor_tally.hpp"

namespace codesim::workload {
namespace {

constexpr double kFp8 = 1 + 4.0 / 128;   // a byte and a 4-byte scale per 128 elements
constexpr double kE5M6 = 1.5;            // DeepSeek's format for the attention's output
constexpr double kPadRowsPerExpert = 8;  // the eager layer pads each expert's rows to 8

// How a stack keeps what the backward needs.
struct Policy {
  bool norm_outputs = true;    // else recomputed from the norm's input
  bool mla_up_outputs = true;  // q, k, v kept (else recomputed from the latents)
  bool silu_output = true;     // eager SiLU keeps its output beside SwiGLU's
  int expert_row_copies = 3;   // R x h copies of the tokens and the experts' outputs
  bool padded_rows = true;     // the grouped GEMMs read a padded copy of the rows
  bool fp8_storage = false;    // DeepSeek's FP8 / E5M6 caching and SwiGLU recomputation
};

Policy policy(SoftwareStack s) {
  switch (s) {
    case SoftwareStack::pytorch:
      return {};
    case SoftwareStack::fused:
      return {.silu_output = false, .expert_row_copies = 2};
    case SoftwareStack::deepseek:
      break;
  }
  return {.norm_outputs = false,
          .mla_up_outputs = false,
          .silu_output = false,
          .expert_row_copies = 1,
          .padded_rows = false,
          .fp8_storage = true};
}

double d(int x) {
  return static_cast<double>(x);
}

using Split = TensorTally::Split;

void swiglu(TensorTally& s, const std::string& name, double width, const Policy& p, bool moe) {
  if (p.fp8_storage && moe) {
    s.add(name + " SwiGLU input (FP8; output recomputed)", 2 * width, kFp8, Split::columns);
    return;
  }
  s.add(name + " SwiGLU input", 2 * width, kBf16Bytes, Split::columns);
  if (p.silu_output) {
    s.add(name + " SiLU output", width, kBf16Bytes, Split::columns);
  }
  s.add(name + " down projection input", width, p.fp8_storage ? kFp8 : kBf16Bytes, Split::columns);
}

void attention(TensorTally& s, const llm::LlmSpec& m, const Policy& p, const ActivationContext& c) {
  const double heads = d(m.heads);
  if (const auto* mla = std::get_if<llm::MlaSpec>(&m.attention)) {
    const double d_qk = d(mla->qk_nope_head_dim + mla->qk_rope_head_dim);
    // The latents' norms: input (the down projection's output) and, unless recomputed, output
    // (the up projection's input); replicated over TP as the down projections are.
    for (const auto& [name, width] :
         {std::pair{"query latent", mla->q_lora_rank}, std::pair{"KV latent", mla->kv_lora_rank}}) {
      if (width == 0) {
        continue;
      }
      const double input =
          d(width) + (std::string(name) == "KV latent" ? d(mla->qk_rope_head_dim) : 0);
      s.add(std::string(name) + " norm input", input, kBf16Bytes, Split::none);
      s.add(std::string(name) + " norm 1/rms", 1, kFp32Bytes, Split::none);
      if (p.norm_outputs) {
        s.add(std::string(name) + " up projection input", d(width), kBf16Bytes, Split::none);
      }
    }
    if (p.mla_up_outputs) {
      s.add("attention q", heads * d_qk, kBf16Bytes, Split::columns);
      s.add("attention k", heads * d_qk, kBf16Bytes, Split::columns);
      s.add("attention v (KV up projection output)",
            heads * d(mla->qk_nope_head_dim + mla->v_head_dim), kBf16Bytes, Split::columns);
    }
    const double out = heads * d(mla->v_head_dim);
    if (p.fp8_storage) {
      s.add("attention output (E5M6, the output projection's input)", out, kE5M6, Split::columns);
    } else {
      s.add("attention output", out, kBf16Bytes, Split::columns);
      s.add("output projection input (contiguous copy)", out, kBf16Bytes, Split::columns);
    }
  } else {
    const auto& g = std::get<llm::GqaSpec>(m.attention);
    const double hd = d(g.head_dim);
    s.add("attention q", heads * hd, kBf16Bytes, Split::columns);
    s.add("attention k and v", 2 * d(g.kv_heads) * hd, kBf16Bytes, Split::columns);
    s.add("attention output (the output projection's input)", heads * hd,
          p.fp8_storage ? kE5M6 : kBf16Bytes, Split::columns);
  }
  if (!c.unfused_attention) {
    s.add("attention log-sum-exp", heads, kFp32Bytes, Split::columns);
    return;
  }
  s.add("attention probabilities (the softmax's output)", heads * c.seq_len, kBf16Bytes,
        Split::columns);
  if (c.dropout) {
    s.add("attention dropout mask", heads * c.seq_len, 1, Split::columns);
    s.add("attention probabilities after dropout (the context GEMM's input)", heads * c.seq_len,
          kBf16Bytes, Split::columns);
  }
}

void moe(TensorTally& s, const llm::LlmSpec& m, const Policy& p, const ActivationContext& c) {
  const llm::MoeSpec& e = *m.moe;
  const double h = d(m.hidden);
  const double split = c.sequence_parallel ? c.tp : 1;
  s.add("router scores (FP32)", d(e.routed_experts), kFp32Bytes, Split::sequence);
  s.add("router picks", 2.0 * e.activated_experts, kIndexBytes, Split::sequence);
  const double rows = (c.expert_rows > 0 ? c.expert_rows : c.tokens * e.activated_experts) / split;
  const double f = d(e.expert_inter_dim);
  if (p.fp8_storage) {
    // The routing weight scales the SwiGLU output, so its gradient comes from the recomputed
    // output too: the experts' outputs need not be kept (assumed; the report does not say).
    s.add_rows("experts' dispatched rows (FP8)", rows, h, kFp8);
    s.add_rows("experts SwiGLU input (FP8; output recomputed)", rows, 2 * f, kFp8);
  } else {
    s.add_rows("row order indices", rows, 3, kIndexBytes);
    s.add_rows("experts' rows and outputs (copies)", rows,
               h * static_cast<double>(p.expert_row_copies), kBf16Bytes);
    const double padded = rows + (p.padded_rows ? kPadRowsPerExpert * c.local_experts : 0);
    if (p.padded_rows) {
      s.add_rows("experts' padded input", padded, h, kBf16Bytes);
    }
    s.add_rows("experts SwiGLU input", padded, 2 * f, kBf16Bytes);
    if (p.silu_output) {
      s.add_rows("experts SiLU output", padded, f, kBf16Bytes);
    }
    s.add_rows("experts down projection input", padded, f, kBf16Bytes);
  }
  if (e.shared_experts > 0) {
    swiglu(s, "shared experts", d(e.shared_experts) * f, p, true);
  }
}

}  // namespace

std::vector<SavedTensor> saved_tensors(const llm::LlmSpec& m, const llm::LayerKind& layer,
                                       SoftwareStack stack, const ActivationContext& c) {
  const Policy p = policy(stack);
  const double h = d(m.hidden);
  TensorTally s(c.tokens, c.tp, c.sequence_parallel);
  s.add("layer input (residual stream)", h, kBf16Bytes, Split::sequence);
  s.add("attention norm 1/rms", 1, kFp32Bytes, Split::sequence);
  if (p.norm_outputs) {
    s.add("attention norm output (the projections' input)", h, kBf16Bytes, Split::sequence);
  }
  attention(s, m, p, c);
  if (c.dropout) {
    s.add("attention output dropout mask", h, 1, Split::sequence);
    s.add("FFN output dropout mask", h, 1, Split::sequence);
  }
  s.add("FFN norm input (residual stream)", h, kBf16Bytes, Split::sequence);
  s.add("FFN norm 1/rms", 1, kFp32Bytes, Split::sequence);
  if (p.norm_outputs) {
    s.add("FFN norm output", h, kBf16Bytes, Split::sequence);
  }
  if (m.moe && layer.moe) {
    moe(s, m, p, c);
  } else if (m.ffn == llm::FfnKind::gelu) {
    s.add("GELU input", d(m.ffn_inter_dim), kBf16Bytes, Split::columns);
    s.add("GELU output (the down projection's input)", d(m.ffn_inter_dim), kBf16Bytes,
          Split::columns);
  } else {
    swiglu(s, "FFN", d(m.ffn_inter_dim), p, false);
  }
  return s.take();
}

std::vector<SavedTensor> head_saved_tensors(const llm::LlmSpec& m, SoftwareStack stack,
                                            const ActivationContext& c) {
  const double heads = 1 + m.mtp_depth;
  const double h = d(m.hidden);
  TensorTally s(c.tokens, c.tp, c.sequence_parallel);
  s.add("final norm input", heads * h, kBf16Bytes, Split::sequence);
  s.add("final norm 1/rms", heads, kFp32Bytes, Split::sequence);
  s.add("head input", heads * h, kBf16Bytes, Split::sequence);
  s.add(stack == SoftwareStack::pytorch ? "logits (FP32)" : "logits", heads * d(m.vocab),
        stack == SoftwareStack::pytorch ? kFp32Bytes : kBf16Bytes, Split::columns);
  return s.take();
}

double total_bytes(const std::vector<SavedTensor>& tensors) {
  return std::accumulate(tensors.begin(), tensors.end(), 0.0,
                         [](double a, const SavedTensor& t) { return a + t.bytes; });
}

}  // namespace codesim::workload
