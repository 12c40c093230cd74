// Bytes per parameter and per activation of the training state, in one place for the step program
// (what moves) and the memory model (what stays). Mixed precision as DeepSeek-V3 trained
// (docs/model/deepseek-v3.md §5): BF16 parameters, FP32 gradients and master weights, BF16 AdamW
// moments.
#pragma once

#include <array>
#include <string_view>
#include <utility>

namespace codesim::workload {

inline constexpr double kParameterBytes = 2;   // BF16 weights, as gathered after the optimizer
inline constexpr double kGradientBytes = 4;    // FP32 gradients, as reduced across replicas
inline constexpr double kMasterBytes = 4;      // FP32 master weights
inline constexpr double kMomentBytes = 2;      // each of AdamW's two BF16 moments
inline constexpr double kActivationBytes = 2;  // BF16 activations and their gradients

// Optimizer state per parameter: master weights and both moments.
inline constexpr double kOptimizerStateBytes = kMasterBytes + 2 * kMomentBytes;

// HBM traffic of one AdamW update per parameter: read master, gradient and both moments; write
// master, both moments and the BF16 parameter.
inline constexpr double kOptimizerTrafficBytes =
    kMasterBytes + kGradientBytes + 2 * kMomentBytes + kOptimizerStateBytes + kParameterBytes;

// Activation bytes one token leaves per transformer layer for the backward pass, in units of the
// hidden size: 34 (Korthikanti et al. 2022, BF16, no recomputation). An upper bound for
// DeepSeek-V3, which recomputes norms and MLA up-projections and caches some activations in FP8.
inline constexpr double kActivationHiddensPerTokenLayer = 34;

// With full recomputation a layer keeps only its BF16 input (2 x hidden bytes per token); the
// layer being recomputed holds its whole 34 meanwhile.
inline constexpr double kRecomputedHiddensPerTokenLayer = 2;

// Activation recomputation (Korthikanti et al. 2022). selective: the attention core's softmax
// and scores recomputed in backward, which a fused attention kernel's backward does anyway (and
// whose stored scores, the 5as/h term, it never keeps): the same time and memory as none here.
// full: every layer's forward run again before its backward; only layer inputs are kept.
enum class Recompute { none, selective, full };
inline constexpr std::array kRecomputeNames = {
    std::pair{Recompute::none, std::string_view("none")},
    std::pair{Recompute::selective, std::string_view("selective")},
    std::pair{Recompute::full, std::string_view("full")},
};

}  // namespace codesim::workload
