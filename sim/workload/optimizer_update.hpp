// The optimizer's update on a rank's shard of parameters, as the kernels that run it: AdamW in
// one fused kernel (torch's fused=True, apex and Transformer Engine's FusedAdam, DeepSeek's) or
// as PyTorch's default foreach AdamW, eight multi-tensor kernels, each a pass over its tensors
// (docs/model/software-stacks.md, "The optimizer"). Per parameter, with weights w (FP32 master
// weights, else the BF16 weights updated in place), gradient g and moments s bytes:
//
//   fused    one pass: read w, g and both moments, write w and both moments, and the BF16
//            weights when w is a master copy
//   foreach  weight decay (w in, w out), the first moment's lerp (m, g in, m out), the second's
//            scale (v in, v out) and addcmul (v, g in, v out), its square root into a temporary
//            of the moments' type (v in, t out), the bias correction and epsilon on it (t in, t
//            out, twice), the update (w, m, t in, w out): 4w + 2g + 14s; plus a cast of the
//            master copy into the BF16 weights (w in, 2 out) when there is one
//
// Time on the GPU: the bytes at a measured fraction of HBM bandwidth plus, per pass, a measured
// cost per parameter (the arithmetic HBM does not hide), both fitted to the H200's AdamW runs
// (tools/calibration/fit_step_extras.py); the per-parameter cost scales with the GPU's SMs.
#pragma once

#include <array>
#include <string_view>
#include <utility>

#include "models/cost/kernel_cost.hpp"
#include "models/hardware/hardware_spec.hpp"
#include "sim/workload/training_state.hpp"

namespace codesim::workload {

enum class OptimizerKernels { foreach, fused };

inline constexpr std::array kOptimizerKernelsNames{
    std::pair{OptimizerKernels::foreach, std::string_view("foreach")},
    std::pair{OptimizerKernels::fused, std::string_view("fused")}};
constexpr const auto& spellings(OptimizerKernels) {
  return kOptimizerKernelsNames;
}

struct OptimizerTraffic {
  double bytes_per_param = 0;  // HBM bytes read and written
  int passes = 0;              // kernels, each over every parameter of the shard
};

OptimizerTraffic adamw_traffic(OptimizerKernels k, const TrainingPrecision& p);

// The update of `params` parameters as one kernel shape (class optimizer): its bytes, its
// measured HBM fraction and its per-parameter arithmetic as fixed time.
cost::KernelShape adamw_update(OptimizerKernels k, const TrainingPrecision& p, double params,
                               const hardware::GpuSpec& gpu);

}  // namespace codesim::workload
