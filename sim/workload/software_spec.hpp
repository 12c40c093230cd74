// The software stack a step runs on, where it changes what the kernels see: a scenario's
// software: section. parameters.hpp declares each key with its doc and default (the struct's
// own, or derived where the doc says so).
#pragma once

#include "sim/workload/optimizer_update.hpp"
#include "sim/workload/software_stack.hpp"
#include "sim/workload/training_state.hpp"

namespace codesim::workload {

struct SoftwareSpec {
  // Whose kernels the step runs: eager PyTorch, a fused stack (torch.compile's measurements),
  // or DeepSeek's own (its H800 trace); software_stack.hpp.
  SoftwareStack stack = SoftwareStack::fused;
  // The step's kernels replayed from CUDA graphs; without, the host issues each one. Derived:
  // true for decode steps.
  bool cuda_graphs = false;
  // The framework pads the vocabulary to a multiple of this (Megatron: 128 x TP); the scenario's
  // model (its spec's vocab) is the padded one.
  int vocab_multiple = 1;
  // How AdamW's update runs: one fused kernel or PyTorch's foreach kernels. Derived: foreach
  // for the pytorch stack.
  OptimizerKernels optimizer = OptimizerKernels::fused;
  // Attention's core as one fused kernel, or as Megatron-LM ran it in 2021.
  AttentionKernel attention = AttentionKernel::flash;
};

}  // namespace codesim::workload
