// The gate against a straightforward float64 reimplementation of docs/model/deepseek-v3.md §2.
#include "models/kernels/gate.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "models/kernels/rng.hpp"
#include "models/kernels/synthetic.hpp"
#include "models/llm/catalog.hpp"

namespace codesim::kernels {
namespace {

struct Reference {
  std::vector<int> experts;
  std::vector<double> weights;
};

// One token, in double, written out step by step.
Reference reference_gate(const std::vector<double>& logits, const std::vector<double>& bias,
                         const GateSpec& g) {
  const int n = g.experts;
  std::vector<double> s(n);
  if (g.score == llm::ScoreFunction::sigmoid) {
    for (int e = 0; e < n; ++e) {
      s[e] = 1.0 / (1.0 + std::exp(-logits[e]));  // 1. affinity
    }
  } else {
    const double peak = *std::max_element(logits.begin(), logits.end());
    double total = 0;
    for (int e = 0; e < n; ++e) {
      total += s[e] = std::exp(logits[e] - peak);
    }
    for (auto& v : s) {
      v /= total;
    }
  }
  std::vector<double> biased(n);
  for (int e = 0; e < n; ++e) {
    biased[e] = s[e] + bias[e];  // 2. bias steers selection only
  }
  const int per_group = n / g.groups;
  std::vector<std::pair<double, int>> group_scores;
  for (int grp = 0; grp < g.groups; ++grp) {  // 3. group score: sum of the top 2 (max for softmax)
    std::vector<double> members(biased.begin() + grp * per_group,
                                biased.begin() + (grp + 1) * per_group);
    std::sort(members.rbegin(), members.rend());
    group_scores.push_back(
        {g.score == llm::ScoreFunction::sigmoid ? members[0] + members[1] : members[0], grp});
  }
  std::sort(group_scores.begin(), group_scores.end(), [](auto a, auto b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
  });
  std::vector<bool> kept(g.groups, false);
  for (int i = 0; i < g.topk_groups; ++i) {
    kept[group_scores[i].second] = true;
  }
  std::vector<int> candidates;
  for (int e = 0; e < n; ++e) {
    if (kept[e / per_group]) {
      candidates.push_back(e);
    }
  }
  std::sort(candidates.begin(), candidates.end(), [&](int a, int b) {
    return biased[a] > biased[b] || (biased[a] == biased[b] && a < b);
  });
  Reference r;  // 4. top-k; 5. weights from the unbiased s, normalized (sigmoid), scaled
  double total = 0;
  for (int k = 0; k < g.topk; ++k) {
    r.experts.push_back(candidates[k]);
    total += s[candidates[k]];
  }
  for (int e : r.experts) {
    r.weights.push_back((g.score == llm::ScoreFunction::sigmoid ? s[e] / total : s[e]) *
                        g.route_scale);
  }
  return r;
}

void compare_with_reference(const GateSpec& spec, int hidden, std::uint64_t seed) {
  Rng rng(seed);
  const int tokens = 64;
  RowMatrixXf x(tokens, hidden);
  RowMatrixXf w(spec.experts, hidden);
  for (int i = 0; i < x.size(); ++i) {
    x.data()[i] = static_cast<float>(rng.normal());
  }
  for (int i = 0; i < w.size(); ++i) {
    w.data()[i] = static_cast<float>(rng.normal() / std::sqrt(hidden));
  }
  Eigen::VectorXf bias(spec.experts);
  for (int e = 0; e < spec.experts; ++e) {
    bias[e] = static_cast<float>(0.05 * rng.normal());
  }
  const GateOutput out = gate(x, w, bias, spec);
  for (int t = 0; t < tokens; ++t) {
    std::vector<double> logits(spec.experts);
    for (int e = 0; e < spec.experts; ++e) {
      logits[e] = x.row(t).cast<double>().dot(w.row(e).cast<double>());
    }
    const Reference r =
        reference_gate(logits, std::vector<double>(bias.data(), bias.data() + spec.experts), spec);
    for (int k = 0; k < spec.topk; ++k) {
      EXPECT_EQ(out.expert(t, k), r.experts[k]) << "token " << t << " k " << k;
      EXPECT_NEAR(out.weight(t, k), r.weights[k], 1e-6 * spec.route_scale)
          << "token " << t << " k " << k;
    }
  }
}

TEST(Gate, DeepSeekV3MatchesTheFloat64Reference) {
  compare_with_reference(gate_spec(*llm::find_preset("deepseek-v3")), 256, 11);
}

TEST(Gate, DeepSeekV2SoftmaxMatchesTheFloat64Reference) {
  compare_with_reference(gate_spec(*llm::find_preset("deepseek-v2")), 128, 12);
}

TEST(Gate, EveryNodeLimit) {
  for (int m = 1; m <= 8; ++m) {
    GateSpec spec = gate_spec(*llm::find_preset("deepseek-v3"));
    spec.topk_groups = m;
    compare_with_reference(spec, 64, 20 + m);
  }
}

TEST(Gate, GroupLimitHoldsAndWeightsSumToRouteScale) {
  const GateSpec spec = gate_spec(*llm::find_preset("deepseek-v3"));
  const auto g = make_synthetic_gate(256, 256, {.zipf = 1.1}, 3);
  const auto out = gate(sample_tokens(g, 512, 4), g.weight, Eigen::VectorXf::Zero(256), spec);
  for (int t = 0; t < out.tokens; ++t) {
    std::set<int> groups;
    float sum = 0;
    for (int k = 0; k < out.topk; ++k) {
      groups.insert(out.expert(t, k) / 32);
      sum += out.weight(t, k);
    }
    EXPECT_LE(groups.size(), 4u);
    EXPECT_NEAR(sum, 2.5f, 1e-5f);  // normalized to 1, times route_scale 2.5
  }
}

TEST(Gate, SameSeedSameBits) {
  const GateSpec spec = gate_spec(*llm::find_preset("deepseek-v3"));
  auto run = [&] {
    const auto g = make_synthetic_gate(256, 512, {.zipf = 1.1}, 9);
    return gate(sample_tokens(g, 256, 10), g.weight, Eigen::VectorXf::Zero(256), spec);
  };
  const auto a = run();
  const auto b = run();
  EXPECT_EQ(a.experts, b.experts);
  EXPECT_EQ(a.weights, b.weights);
}

TEST(Gate, DenseModelHasNone) {
  EXPECT_THROW(gate_spec(*llm::find_preset("llama3.1-405b")), std::invalid_argument);
}

}  // namespace
}  // namespace codesim::kernels
