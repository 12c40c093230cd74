// Gate: one GEMM for the affinities, then per-token selection.
#include "models/kernels/gate.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace codesim::kernels {
namespace {

// Indices of the n largest values (ties to the lower index), in descending order: one pass that
// keeps the best n so far sorted (n is 2 to 8 here, against 8 to 256 values). An index later in
// the scan enters only if strictly larger than the n-th, and goes after every kept one it does
// not exceed, so equal values stay in index order.
void top_n(const float* values, int count, int n, std::vector<int>& order) {
  order.clear();
  for (int i = 0; i < count; ++i) {
    const float v = values[i];
    if (static_cast<int>(order.size()) == n && !(v > values[order.back()])) {
      continue;
    }
    if (static_cast<int>(order.size()) == n) {
      order.pop_back();
    }
    auto at = order.end();
    while (at != order.begin() && v > values[*(at - 1)]) {
      --at;
    }
    order.insert(at, i);
  }
}

}  // namespace

GateSpec gate_spec(const llm::LlmSpec& m) {
  if (!m.moe) {
    throw std::invalid_argument(m.name + " is a dense model: it has no gate");
  }
  return GateSpec{.experts = m.moe->routed_experts,
                  .groups = m.moe->expert_groups,
                  .topk_groups = m.moe->limited_groups,
                  .topk = m.moe->activated_experts,
                  .route_scale = static_cast<float>(m.moe->route_scale),
                  .score = m.moe->score};
}

double gate_flops(int tokens, int hidden, int experts) {
  return 2.0 * tokens * hidden * experts;
}

GateOutput gate(const RowMatrixXf& x, const RowMatrixXf& w, const Eigen::VectorXf& bias,
                const GateSpec& spec) {
  const int tokens = static_cast<int>(x.rows());
  const int experts = spec.experts;
  const int per_group = experts / spec.groups;
  GateOutput out;
  out.tokens = tokens;
  out.topk = spec.topk;
  out.scores.noalias() = x * w.transpose();
  if (spec.score == llm::ScoreFunction::sigmoid) {
    out.scores = out.scores.unaryExpr([](float v) { return 1.0f / (1.0f + std::exp(-v)); });
  } else {
    for (int t = 0; t < tokens; ++t) {
      auto row = out.scores.row(t);
      const float peak = row.maxCoeff();
      row = (row.array() - peak).exp();
      row /= row.sum();
    }
  }
  out.experts.resize(static_cast<std::size_t>(tokens) * spec.topk);
  out.weights.resize(out.experts.size());
  std::vector<float> biased(experts);
  std::vector<float> group_score(spec.groups);
  std::vector<int> order;
  for (int t = 0; t < tokens; ++t) {
    const float* s = out.scores.row(t).data();
    for (int e = 0; e < experts; ++e) {
      biased[e] = s[e] + bias[e];
    }
    if (spec.topk_groups < spec.groups) {
      for (int g = 0; g < spec.groups; ++g) {
        const float* begin = biased.data() + g * per_group;
        if (spec.score == llm::ScoreFunction::sigmoid) {
          top_n(begin, per_group, 2, order);
          group_score[g] = begin[order[0]] + begin[order[1]];
        } else {
          group_score[g] = *std::max_element(begin, begin + per_group);
        }
      }
      top_n(group_score.data(), spec.groups, spec.topk_groups, order);
      std::vector<bool> kept(spec.groups, false);
      for (int g : order) {
        kept[g] = true;
      }
      for (int e = 0; e < experts; ++e) {
        if (!kept[e / per_group]) {
          biased[e] = -std::numeric_limits<float>::infinity();
        }
      }
    }
    top_n(biased.data(), experts, spec.topk, order);
    float sum = 0;
    for (int k = 0; k < spec.topk; ++k) {
      sum += s[order[k]];
    }
    for (int k = 0; k < spec.topk; ++k) {
      const std::size_t i = static_cast<std::size_t>(t) * spec.topk + k;
      out.experts[i] = order[k];
      const float weight =
          spec.score == llm::ScoreFunction::sigmoid ? s[order[k]] / sum : s[order[k]];
      out.weights[i] = weight * spec.route_scale;
    }
  }
  return out;
}

}  // namespace codesim::kernels
