// The MoE gate exactly as DeepSeek's inference code computes it (docs/model/deepseek-v3.md §2):
//   s = sigmoid(W x) (or softmax for DeepSeek-V2); s' = s + bias (steers selection only);
//   group score = sum of the top-2 s' of each group (max for the softmax gate); keep the best
//   `topk_groups` groups; pick the top-k experts by s' among them; weights = the picked s,
//   normalized to sum 1 (sigmoid gate only), times route_scale.
// Ties go to the lower index.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "models/llm/llm_spec.hpp"

namespace codesim::kernels {

struct GateSpec {
  int experts = 256;
  int groups = 8;
  int topk_groups = 4;  // the node limit M when each group lives on one node
  int topk = 8;
  float route_scale = 2.5f;
  llm::ScoreFunction score = llm::ScoreFunction::sigmoid;
};

// The model's gate; throws std::invalid_argument for a dense model.
GateSpec gate_spec(const llm::LlmSpec& m);

using RowMatrixXf = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct GateOutput {
  int tokens = 0;
  int topk = 0;
  std::vector<int> experts;    // tokens x topk, by descending s'
  std::vector<float> weights;  // tokens x topk
  RowMatrixXf scores;          // tokens x experts: s, before the bias

  int expert(int token, int k) const { return experts[static_cast<std::size_t>(token) * topk + k]; }
  float weight(int token, int k) const {
    return weights[static_cast<std::size_t>(token) * topk + k];
  }
};

// x: tokens x hidden; w: experts x hidden; bias: experts (zeros for none).
GateOutput gate(const RowMatrixXf& x, const RowMatrixXf& w, const Eigen::VectorXf& bias,
                const GateSpec& spec);

// Matrix-product FLOPs of the gate: 2 x tokens x hidden x experts.
double gate_flops(int tokens, int hidden, int experts);

}  // namespace codesim::kernels
