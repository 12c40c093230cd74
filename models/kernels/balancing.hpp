// Auxiliary-loss-free load balancing (docs/model/deepseek-v3.md §2): after each training step every
// expert's bias moves by gamma against its load (down when above the mean, up when below); and the
// sequence-wise balance loss, computed for reporting (it does not steer routing here).
#pragma once

#include <cstdint>
#include <vector>

#include "models/kernels/gate.hpp"
#include "models/kernels/synthetic.hpp"

namespace codesim::kernels {

struct BalanceOptions {
  int steps = 100;
  int tokens_per_step = 4096;
  float gamma = 0.001f;
  std::uint64_t seed = 1;
};

struct BalanceResult {
  Eigen::VectorXf bias;
  std::vector<double> load_cv;  // per step, before its bias update
};

// Tokens of step i are drawn with seed (options.seed, i).
BalanceResult balance_bias(const SyntheticGate& g, const GateSpec& spec,
                           const BalanceOptions& options);

// Token-expert pairs per expert.
std::vector<double> expert_load(const GateOutput& out, int experts);

// L = alpha x sum_i f_i P_i over one sequence of T tokens, with
// f_i = experts / (topk T) x (tokens choosing i) and P_i = (1/T) x sum_t s_i,t / sum_j s_j,t.
double sequence_balance_loss(const GateOutput& out, double alpha);

}  // namespace codesim::kernels
