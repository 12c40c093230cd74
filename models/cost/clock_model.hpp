// The SM clock a GPU runs a stretch of work at under its power limit, and the work's time and
// energy at that clock (docs/model/power.md; fitted in models/calibration/h200/power).
//
// A stretch is its kernels' time at the top clock f_max by kind of work (t_a, the kernel model's
// cold fits) and the time the GPU waits meanwhile (awake, SMs idle). At clock ratio r = f / f_max:
//   time(r)   = sum_a t_a max(1, clock_bound_a / r) + waiting
//   energy(r) = awake x time(r) + sum_a dynamic_a w_a r^energy_exponent_a
//               (w_a: the work done, as seconds of the kind's measured kernel at f_max; a GEMM's
//               or attention's HBM bytes count as copies' bytes besides its FLOPs)
//   power(r)  = energy(r) / time(r)
// The governor (averaging over tens of milliseconds) runs the highest r in [f_min / f_max, 1]
// whose power is within the limit; power falls as r falls, so it is found by bisection.
#pragma once

#include <array>

#include "models/cost/kernel_cost.hpp"
#include "models/hardware/hardware_spec.hpp"
#include "sim/core/units.hpp"

namespace codesim::cost {

// The kind of work a kernel's power follows: GEMMs by their dtype, fused attention, norms, other
// SM-side memory-bound kernels, copies and communication kernels.
hardware::PowerActivity power_activity(KernelClass c, DType d);

// The rate (FLOP/s or HBM bytes/s) at which a kind's measured kernel drew its dynamic power on
// this GPU: its fraction of the peak that bounds it.
double reference_rate(hardware::PowerActivity a, const hardware::GpuSpec& g);

// Kernel time at the top clock by kind of work, and the work done in it as seconds of the kind's
// measured kernel (reference_rate): what its energy goes with.
struct Work {
  std::array<core::Seconds, hardware::kPowerActivities> at_top{};
  std::array<core::Seconds, hardware::kPowerActivities> full_power{};

  // A kernel of `time` at the top clock doing `work` FLOPs (tensor cores, attention) or bytes.
  void add(hardware::PowerActivity a, core::Seconds time, double work, const hardware::GpuSpec& g);
  // The HBM bytes a tensor-core or attention kernel of `time` moves beside its FLOPs: their energy
  // at the copy kind's (a small-batch GEMM streaming its weights draws it; its arithmetic is in
  // its FLOPs).
  void add_traffic(core::Seconds time, double bytes, const hardware::GpuSpec& g);

  core::Seconds total() const;
  Work& operator+=(const Work& o);
};

// The work's time at clock ratio r (no waiting).
core::Seconds time_at(const Work& w, double ratio, const hardware::PowerSpec& p);
// Its energy above the awake board at clock ratio r, in joules.
double dynamic_energy_j(const Work& w, double ratio, const hardware::PowerSpec& p);

struct Governed {
  double ratio = 1;        // f / f_max
  core::Seconds busy;      // the work's time at that clock
  core::Seconds stretch;   // the stretch: busy plus the waiting
  double power_w = 0;      // the board's mean power over the stretch
  double energy_j = 0;     // over the stretch, awake board included
  bool power_bound = false;  // the limit, not the top clock, set the clock
};

// The clock the governor settles at for `work` with `waiting` beside it, run back to back.
// A spec without a limit (limit_w 0) runs at the top clock and reports no power.
Governed govern(const Work& work, core::Seconds waiting, const hardware::PowerSpec& p);

}  // namespace codesim::cost
