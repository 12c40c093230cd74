// Synthetic gate weights and tokens.
#include "models/kernels/synthetic.hpp"

#include <algorithm>
#include <cmath>

#include "models/kernels/rng.hpp"

namespace codesim::kernels {

SyntheticGate make_synthetic_gate(int experts, int hidden, const SkewSpec& skew,
                                  std::uint64_t seed) {
  Rng rng(seed);
  SyntheticGate g;
  g.skew = skew;
  g.weight.resize(experts, hidden);
  const double sd = 1.0 / std::sqrt(static_cast<double>(hidden));
  for (int e = 0; e < experts; ++e) {
    for (int j = 0; j < hidden; ++j) {
      g.weight(e, j) = static_cast<float>(rng.normal() * sd);
    }
  }
  g.centroids = RowMatrixXf::Zero(skew.topics, hidden);
  const int groups = std::max(1, skew.expert_groups);
  const int per_group = experts / groups;
  for (int k = 0; k < skew.topics; ++k) {
    std::vector<int> topic_groups;
    for (int i = 0; i < skew.groups_per_topic; ++i) {
      topic_groups.push_back(rng.below(groups));
    }
    for (int i = 0; i < skew.preferred_experts; ++i) {
      const int group = topic_groups[static_cast<std::size_t>(i) % topic_groups.size()];
      const int e = group * per_group + rng.below(per_group);
      g.centroids.row(k) += skew.strength * g.weight.row(e) / g.weight.row(e).squaredNorm();
    }
  }
  return g;
}

RowMatrixXf sample_tokens(const SyntheticGate& g, int tokens, std::uint64_t seed) {
  Rng rng(seed);
  const ZipfSampler topic(static_cast<int>(g.centroids.rows()), g.skew.zipf);
  const auto hidden = g.weight.cols();
  RowMatrixXf x(tokens, hidden);
  for (int t = 0; t < tokens; ++t) {
    const float* centroid = g.centroids.row(topic(rng)).data();
    float* row = x.row(t).data();
    Eigen::Index j = 0;
    while (j < hidden) {
      std::uint64_t bits = rng.next();
      const Eigen::Index end = std::min<Eigen::Index>(j + 64, hidden);
      for (; j < end; ++j, bits >>= 1) {
        row[j] = centroid[j] + static_cast<float>(1 - 2 * static_cast<int>(bits & 1U));
      }
    }
  }
  return x;
}

}  // namespace codesim::kernels
