// Bytes per parameter and per activation of the training state, in one place for the step program
// (what moves) and the memory model (what stays). The weights the layers compute with are BF16;
// the rest is the scenario's `workload.precision` (TrainingPrecision), by default as DeepSeek-V3
// trained (docs/model/deepseek-v3.md §5): FP32 gradients and master weights, BF16 AdamW moments.
#pragma once

#include <array>
#include <string_view>
#include <utility>

namespace codesim::workload {

// What a PyTorch process holds on the GPU outside its tensors: the CUDA context with the
// framework's kernels (619 MiB), cuBLAS's handle and modules (66 MiB) and flash attention's
// (16 MiB), 701 MiB read on the H200 with torch 2.11 (models/calibration/h200/steps/
// h200_framework_memory.json: nvidia-smi's memory.used less PyTorch's reserved bytes). Taken
// for every stack and GPU (an assumption elsewhere); DeepEP's buffers are
// workload::ep_buffer_bytes; NCCL's are not counted.
inline constexpr double kFrameworkBytes = 701.0 * 1024 * 1024;
inline constexpr double kParameterBytes = 2;   // BF16 weights, as gathered after the optimizer
inline constexpr double kActivationBytes = 2;  // BF16 activations and their gradients

// The training state's precisions: FP32 master weights beside the BF16 ones or not (the optimizer
// then updates the BF16 weights in place), the gradients' and AdamW moments' element sizes.
struct TrainingPrecision {
  bool master_weights = true;
  double gradient_bytes = 4;  // per element, as reduced across replicas
  double moment_bytes = 2;    // each of AdamW's two moments

  double master_bytes() const { return master_weights ? 4 : 0; }
  // Optimizer state per parameter: master weights and both moments.
  double optimizer_state_bytes() const { return master_bytes() + 2 * moment_bytes; }
};

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
constexpr const auto& spellings(Recompute) {
  return kRecomputeNames;
}

// How attention's core runs: one fused kernel (flash attention: the scores never reach HBM), or
// as Megatron-LM ran it before fused attention (2021): the scores written by a batched GEMM,
// a softmax over them, dropout on the probabilities when the step applies dropout, a batched
// GEMM with V; backward the same in reverse (docs/model/software-stacks.md).
enum class AttentionKernel { flash, unfused };
inline constexpr std::array kAttentionKernelNames = {
    std::pair{AttentionKernel::flash, std::string_view("flash")},
    std::pair{AttentionKernel::unfused, std::string_view("unfused")},
};
constexpr const auto& spellings(AttentionKernel) {
  return kAttentionKernelNames;
}

}  // namespace codesim::workload
