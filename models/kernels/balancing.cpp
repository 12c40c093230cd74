// Bias balancing loop and balance loss.
#include "models/kernels/balancing.hpp"

#include <numeric>

#include "models/kernels/routing_plan.hpp"

namespace codesim::kernels {

std::vector<double> expert_load(const GateOutput& out, int experts) {
  std::vector<double> load(experts, 0.0);
  for (int e : out.experts) {
    load[e] += 1;
  }
  return load;
}

BalanceResult balance_bias(const SyntheticGate& g, const GateSpec& spec,
                           const BalanceOptions& options) {
  BalanceResult r;
  r.bias = Eigen::VectorXf::Zero(spec.experts);
  for (int step = 0; step < options.steps; ++step) {
    const auto x = sample_tokens(g, options.tokens_per_step,
                                 options.seed * 1'000'003ULL + static_cast<std::uint64_t>(step));
    const auto load = expert_load(gate(x, g.weight, r.bias, spec), spec.experts);
    r.load_cv.push_back(coefficient_of_variation(load));
    const double mean = std::accumulate(load.begin(), load.end(), 0.0) / spec.experts;
    for (int e = 0; e < spec.experts; ++e) {
      if (load[e] > mean) {
        r.bias[e] -= options.gamma;
      } else if (load[e] < mean) {
        r.bias[e] += options.gamma;
      }
    }
  }
  return r;
}

double sequence_balance_loss(const GateOutput& out, double alpha) {
  const int experts = static_cast<int>(out.scores.cols());
  const double tokens = out.tokens;
  const auto load = expert_load(out, experts);
  const Eigen::VectorXf row_sum = out.scores.rowwise().sum();
  double loss = 0;
  for (int e = 0; e < experts; ++e) {
    double p = 0;
    for (int t = 0; t < out.tokens; ++t) {
      p += out.scores(t, e) / row_sum[t];
    }
    const double f = experts / (out.topk * tokens) * load[e];
    loss += f * (p / tokens);
  }
  return alpha * loss;
}

}  // namespace codesim::kernels
