// The peak of one inference step's transient tensors, phase by phase.
#include "sim/workload/inference_transient.hpp"

#include <algorithm>
#include <functional>
#include <variant>

#include "sim/workload/tensor_tally.hpp"

namespace codesim::workload {
namespace {

using Split = TensorTally::Split;

constexpr double kPadRowsPerExpert = 8;  // the eager MoE pads each expert's rows to 8

double d(int x) {
  return static_cast<double>(x);
}

struct Phase {
  std::string where;
  std::vector<SavedTensor> tensors;
};

class Layer {
 public:
  Layer(const llm::LlmSpec& m, const llm::LayerKind& kind, SoftwareStack stack,
        const TransientContext& c)
      : m_(m), kind_(kind), eager_(stack == SoftwareStack::pytorch), c_(c) {}

  // The phases of the layer's forward whose live sets may be the largest.
  std::vector<Phase> phases() const {
    std::vector<Phase> out;
    out.push_back(phase("attention", [&](TensorTally& t) {
      t.add("layer input (residual stream)", d(m_.hidden), kBf16Bytes, Split::sequence);
      attention(t);
    }));
    if (kind_.moe && m_.moe) {
      moe_phases(out);
    } else {
      ffn_phases(out);
    }
    return out;
  }

 private:
  Phase phase(const std::string& what, const std::function<void(TensorTally&)>& fill) const {
    TensorTally t(c_.tokens * c_.tp, c_.tp, true);
    fill(t);
    return {(kind_.moe && m_.moe ? "MoE layer " : "dense layer ") + what, t.take()};
  }

  // What stays alive into the FFN: the layer's input (its caller holds it until the layer
  // returns), the residual after the attention and, eager, the FFN's norm output (the FFN's
  // argument until it returns). The attention's intermediates are freed when it returns, as in a
  // model written as modules (docs/model/memory.md).
  void carried(TensorTally& t) const {
    t.add("layer input (residual stream)", d(m_.hidden), kBf16Bytes, Split::sequence);
    t.add("residual stream after the attention", d(m_.hidden), kBf16Bytes, Split::sequence);
    if (eager_) {
      t.add("FFN norm output (gathered over TP)", d(m_.hidden), kBf16Bytes, Split::none);
    }
  }

  void attention(TensorTally& t) const {
    const double heads = d(m_.heads);
    t.add("norm output (gathered over TP)", d(m_.hidden), kBf16Bytes, Split::none);
    if (const auto* mla = std::get_if<llm::MlaSpec>(&m_.attention)) {
      const double d_qk = d(mla->qk_nope_head_dim + mla->qk_rope_head_dim);
      if (mla->q_lora_rank > 0) {
        t.add("query latent and its norm", 2.0 * mla->q_lora_rank, kBf16Bytes, Split::none);
      }
      t.add("KV latent and its norm", 2.0 * mla->kv_lora_rank + mla->qk_rope_head_dim, kBf16Bytes,
            Split::none);
      t.add("attention q (roped)", heads * d_qk, kBf16Bytes, Split::columns);
      t.add("KV up projection output", heads * d(mla->qk_nope_head_dim + mla->v_head_dim),
            kBf16Bytes, Split::columns);
      t.add("attention k (assembled, roped)", heads * d_qk, kBf16Bytes, Split::columns);
      t.add("attention output", heads * d(mla->v_head_dim), kBf16Bytes, Split::columns);
      return;
    }
    const auto& g = std::get<llm::GqaSpec>(m_.attention);
    const double hd = d(g.head_dim);
    const double kv = d(g.kv_heads);
    t.add("q, k, v projection output", (heads + 2 * kv) * hd, kBf16Bytes, Split::columns);
    if (kind_.rope) {
      t.add("roped q and k", (heads + kv) * hd, kBf16Bytes, Split::columns);
    }
    t.add("attention output", heads * hd, kBf16Bytes, Split::columns);
  }

  void ffn_phases(std::vector<Phase>& out) const {
    const double f = d(m_.ffn_inter_dim);
    const bool gelu = m_.ffn == llm::FfnKind::gelu;
    const double in_width = gelu ? f : 2 * f;
    out.push_back(phase("FFN input projection", [&](TensorTally& t) {
      carried(t);
      if (!eager_) {
        t.add("FFN norm output", d(m_.hidden), kBf16Bytes, Split::none);
      }
      t.add(gelu ? "FFN up projection output" : "SwiGLU input (gate and up)", in_width, kBf16Bytes,
            Split::columns);
    }));
    out.push_back(phase("FFN activation", [&](TensorTally& t) {
      carried(t);
      t.add(gelu ? "FFN up projection output" : "SwiGLU input (gate and up)", in_width, kBf16Bytes,
            Split::columns);
      if (eager_ && !gelu) {
        t.add("SiLU output", f, kBf16Bytes, Split::columns);
      }
      t.add(gelu ? "GELU output" : "SwiGLU output", f, kBf16Bytes, Split::columns);
    }));
  }

  void moe_phases(std::vector<Phase>& out) const {
    const llm::MoeSpec& e = *m_.moe;
    const double h = d(m_.hidden);
    const double f = d(e.expert_inter_dim);
    const double rows = c_.expert_rows > 0 ? c_.expert_rows : c_.tokens * e.activated_experts;
    const double padded = eager_ ? rows + kPadRowsPerExpert * c_.local_experts : rows;
    const auto routing = [&](TensorTally& t) {
      carried(t);
      t.add("router picks and weights", 2.0 * e.activated_experts, kIndexBytes, Split::sequence);
    };
    out.push_back(phase("experts' SwiGLU", [&](TensorTally& t) {
      routing(t);
      t.add_rows(eager_ ? "experts' padded input rows" : "experts' input rows", padded, h,
                 kBf16Bytes);
      t.add_rows("experts SwiGLU input", padded, 2 * f, kBf16Bytes);
      t.add_rows("experts SwiGLU output", padded, f, kBf16Bytes);
      if (eager_) {
        t.add_rows("experts SiLU output", padded, f, kBf16Bytes);
      }
    }));
    // The weighted sum (eager: its product, with the two gathered copies of the outputs), then
    // the shared experts on the layer's tokens.
    const auto outputs = [&](TensorTally& t, double copies) {
      routing(t);
      if (eager_) {
        t.add_rows("experts' padded input rows", padded, h, kBf16Bytes);
        t.add_rows("experts SwiGLU input", padded, 2 * f, kBf16Bytes);
        t.add_rows("experts' outputs (padded)", padded, h, kBf16Bytes);
        t.add_rows("experts' outputs gathered to token order (copies)", rows, copies * h,
                   kBf16Bytes);
      } else if (copies > 2) {
        t.add_rows("experts' outputs", rows, h, kBf16Bytes);
      }
    };
    out.push_back(phase("experts' weighted sum", [&](TensorTally& t) {
      outputs(t, 3);
      t.add("combined output", h, kBf16Bytes, Split::sequence);
    }));
    if (e.shared_experts > 0) {
      const double fs = d(e.shared_experts) * f;
      out.push_back(phase("shared experts", [&](TensorTally& t) {
        outputs(t, 2);
        t.add("combined output", h, kBf16Bytes, Split::sequence);
        t.add("shared experts SwiGLU input", 2 * fs, kBf16Bytes, Split::columns);
        if (eager_) {
          t.add("shared experts SiLU output", fs, kBf16Bytes, Split::columns);
        }
        t.add("shared experts SwiGLU output", fs, kBf16Bytes, Split::columns);
      }));
    }
  }

  const llm::LlmSpec& m_;
  const llm::LayerKind kind_;
  const bool eager_;
  const TransientContext& c_;
};

Phase head(const llm::LlmSpec& m, const TransientContext& c) {
  TensorTally t(c.tokens * c.tp, c.tp, true);
  t.add("last layer's output (residual stream)", d(m.hidden), kBf16Bytes, Split::sequence);
  // A vocabulary-parallel head takes the TP group's positions (gathered) and gives each GPU its
  // share of the vocabulary.
  TensorTally rows(c.logit_rows * c.tp, c.tp, false);
  rows.add("final norm output", d(m.hidden), kBf16Bytes, Split::none);
  rows.add("logits (BF16)", d(m.vocab), kBf16Bytes, Split::columns);
  std::vector<SavedTensor> tensors = t.take();
  for (auto& tensor : rows.take()) {
    tensors.push_back(std::move(tensor));
  }
  return {"output head", std::move(tensors)};
}

}  // namespace

TransientPeak inference_transient(const llm::LlmSpec& m, SoftwareStack stack,
                                  const TransientContext& c) {
  std::vector<Phase> phases{head(m, c)};
  std::vector<llm::LayerKind> kinds;
  for (int i = 0; i < m.layers; ++i) {
    if (std::find(kinds.begin(), kinds.end(), m.layer(i)) == kinds.end()) {
      kinds.push_back(m.layer(i));
    }
  }
  for (const llm::LayerKind& kind : kinds) {
    for (Phase& p : Layer(m, kind, stack, c).phases()) {
      phases.push_back(std::move(p));
    }
  }
  const auto peak = std::max_element(
      phases.begin(), phases.end(),
      [](const auto& a, const auto& b) { return total_bytes(a.tensors) < total_bytes(b.tensors); });
  const double one = total_bytes(peak->tensors);
  return {
      .where = peak->where, .tensors = std::move(peak->tensors), .bytes = one * c.micro_batches};
}

}  // namespace codesim::workload
