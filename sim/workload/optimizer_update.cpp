// AdamW's bytes, passes and time per parameter.
#include "sim/workload/optimizer_update.hpp"

#include "models/calibration/step_extras.hpp"

namespace codesim::workload {
namespace {

// Fitted by tools/calibration/fit_step_extras.py to the H200's AdamW runs over 470M parameters
// in BF16 and in FP32 (models/calibration/h200/steps/h200_step_extras.json; the output is
// fit_step_extras.json beside it, embedded at build time): the fraction of HBM bandwidth the bytes
// move at, and the time per parameter each pass adds, on the H200's 132 SMs.
struct Fit {
  double hbm_efficiency;
  double per_param_pass_s;
};
namespace fit = calibration::step_extras;
constexpr Fit kForeach{.hbm_efficiency = fit::adamw_foreach_hbm_efficiency,
                       .per_param_pass_s = fit::adamw_foreach_per_param_pass_s};
constexpr Fit kFused{.hbm_efficiency = fit::adamw_fused_hbm_efficiency,
                     .per_param_pass_s = fit::adamw_fused_per_param_pass_s};
constexpr double kFitSms = 132;

}  // namespace

OptimizerTraffic adamw_traffic(OptimizerKernels k, const TrainingPrecision& p) {
  const double w = p.master_weights ? p.master_bytes() : kParameterBytes;
  const double g = p.gradient_bytes;
  const double s = p.moment_bytes;
  const double cast = p.master_weights ? kParameterBytes : 0;  // the BF16 weights written
  if (k == OptimizerKernels::fused) {
    return {.bytes_per_param = 2 * w + g + 4 * s + cast, .passes = 1};
  }
  return {.bytes_per_param = 4 * w + 2 * g + 14 * s + (cast > 0 ? w + cast : 0),
          .passes = p.master_weights ? 9 : 8};
}

cost::KernelShape adamw_update(OptimizerKernels k, const TrainingPrecision& p, double params,
                               const hardware::GpuSpec& gpu) {
  const OptimizerTraffic t = adamw_traffic(k, p);
  const Fit& fit = k == OptimizerKernels::fused ? kFused : kForeach;
  return {.kind = cost::KernelClass::optimizer,
          .bytes = core::Bytes(params * t.bytes_per_param),
          .hbm_efficiency = fit.hbm_efficiency,
          .fixed = core::Seconds(params * t.passes * fit.per_param_pass_s * kFitSms /
                                 static_cast<double>(gpu.sms))};
}

}  // namespace codesim::workload
