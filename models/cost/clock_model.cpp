// The governor's clock, and time and energy at a clock.
#include "models/cost/clock_model.hpp"

#include <algorithm>
#include <cmath>

namespace codesim::cost {

using hardware::PowerActivity;

PowerActivity power_activity(KernelClass c, DType d) {
  switch (c) {
    case KernelClass::gemm:
    case KernelClass::grouped_gemm:
      return d == DType::fp8 ? PowerActivity::tensor_fp8 : PowerActivity::tensor_bf16;
    case KernelClass::attention_forward:
    case KernelClass::attention_backward:
      return PowerActivity::attention;
    case KernelClass::norm:
      return PowerActivity::norm;
    case KernelClass::memcpy:
    case KernelClass::communication:
      return PowerActivity::copy;
    default:
      return PowerActivity::elementwise;
  }
}

core::Seconds Work::total() const {
  core::Seconds t(0);
  for (const core::Seconds s : at_top) {
    t += s;
  }
  return t;
}

double reference_rate(PowerActivity a, const hardware::GpuSpec& g) {
  double peak = g.hbm_bandwidth.value;
  if (a == PowerActivity::tensor_fp8 && g.fp8_peak.value > 0) {
    peak = g.fp8_peak.value;
  } else if (a == PowerActivity::tensor_bf16 || a == PowerActivity::tensor_fp8 ||
             a == PowerActivity::attention) {
    peak = g.bf16_peak.value;
  }
  return g.power.of(a).reference_fraction * peak;
}

void Work::add(PowerActivity a, core::Seconds time, double work, const hardware::GpuSpec& g) {
  const auto i = static_cast<std::size_t>(a);
  at_top[i] += time;
  const double rate = reference_rate(a, g);
  // No faster than the measured kernel: a kernel's HBM bytes count once per pass.
  full_power[i] += rate > 0 ? std::min(time, core::Seconds(work / rate)) : time;
}

void Work::add_traffic(core::Seconds time, double bytes, const hardware::GpuSpec& g) {
  const auto i = static_cast<std::size_t>(PowerActivity::copy);
  const double rate = reference_rate(PowerActivity::copy, g);
  full_power[i] += rate > 0 ? std::min(time, core::Seconds(bytes / rate)) : time;
}

Work& Work::operator+=(const Work& o) {
  for (std::size_t i = 0; i < at_top.size(); ++i) {
    at_top[i] += o.at_top[i];
    full_power[i] += o.full_power[i];
  }
  return *this;
}

core::Seconds time_at(const Work& w, double ratio, const hardware::PowerSpec& p) {
  core::Seconds t(0);
  for (std::size_t i = 0; i < w.at_top.size(); ++i) {
    t += w.at_top[i] * std::max(1.0, p.activity[i].clock_bound / ratio);
  }
  return t;
}

double dynamic_energy_j(const Work& w, double ratio, const hardware::PowerSpec& p) {
  double e = 0;
  for (std::size_t i = 0; i < w.at_top.size(); ++i) {
    const hardware::ActivityPower& a = p.activity[i];
    e += a.dynamic_w * w.full_power[i].value * std::pow(ratio, a.energy_exponent);
  }
  return e;
}

namespace {

Governed at(const Work& w, core::Seconds waiting, double ratio, const hardware::PowerSpec& p) {
  Governed g;
  g.ratio = ratio;
  g.busy = time_at(w, ratio, p);
  g.stretch = g.busy + waiting;
  g.energy_j = p.awake_w * g.stretch.value + dynamic_energy_j(w, ratio, p);
  g.power_w = g.stretch.value > 0 ? g.energy_j / g.stretch.value : p.awake_w;
  return g;
}

}  // namespace

Governed govern(const Work& work, core::Seconds waiting, const hardware::PowerSpec& p) {
  if (p.limit_w <= 0 || p.max_clock_mhz <= 0) {
    Governed g;
    g.busy = work.total();
    g.stretch = g.busy + waiting;
    return g;
  }
  const Governed top = at(work, waiting, 1.0, p);
  if (top.power_w <= p.limit_w) {
    return top;
  }
  double lo = std::clamp(p.min_clock_mhz / p.max_clock_mhz, 0.05, 1.0);
  double hi = 1.0;
  if (at(work, waiting, lo, p).power_w > p.limit_w) {
    Governed floor = at(work, waiting, lo, p);  // the limit is below what the floor draws
    floor.power_bound = true;
    return floor;
  }
  for (int i = 0; i < 50; ++i) {
    const double mid = 0.5 * (lo + hi);
    (at(work, waiting, mid, p).power_w > p.limit_w ? hi : lo) = mid;
  }
  Governed g = at(work, waiting, lo, p);
  g.power_bound = true;
  return g;
}

}  // namespace codesim::cost
