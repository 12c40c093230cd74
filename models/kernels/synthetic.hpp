// Reproducible gate inputs: no trained weights exist here, so gate weights and token hidden
// states are synthesized from a seed. Tokens come from topic clusters whose popularity follows a
// Zipf law; each topic leans toward a few experts, so a skewed mix makes some experts hot.
//
//   W (experts x hidden): N(0, 1/hidden) entries, so a random token's logits have unit spread.
//   topic k: centroid c_k = strength x (sum of the rows of W of its preferred experts, drawn from
//            `groups_per_topic` expert groups), so its tokens' logits for those experts are
//            raised by about `strength`; a topic thus concentrates on a few groups (nodes), as
//            trained routers do (DeepSeek report 3.2 experts per chosen node on average).
//   token:   x = c_topic + noise, noise entries +-1 (a Rademacher vector: W x is Gaussian by the
//            central limit theorem, and drawing it costs one random bit per entry).
#pragma once

#include <cstdint>
#include <vector>

#include "models/kernels/gate.hpp"

namespace codesim::kernels {

struct SkewSpec {
  double zipf = 0.0;  // topic popularity exponent; 0 = uniform
  int topics = 64;
  int preferred_experts = 8;  // experts each topic leans toward
  int expert_groups = 8;      // the gate's groups
  int groups_per_topic = 2;   // groups a topic's preferred experts come from
  float strength = 2.0f;      // logit lift of a topic's preferred experts
};

struct SyntheticGate {
  RowMatrixXf weight;     // experts x hidden
  RowMatrixXf centroids;  // topics x hidden
  SkewSpec skew;
};

SyntheticGate make_synthetic_gate(int experts, int hidden, const SkewSpec& skew,
                                  std::uint64_t seed);

// tokens x hidden; the same (gate, tokens, seed) gives the same bits.
RowMatrixXf sample_tokens(const SyntheticGate& g, int tokens, std::uint64_t seed);

}  // namespace codesim::kernels
