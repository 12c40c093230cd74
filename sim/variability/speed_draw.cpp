#include "sim/variability/speed_draw.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace codesim::variability {

double FailSlow::probability() const {
  return std::min(1.0, per_1000_part_days / 1000.0 * duration.value / 86400.0);
}

SpeedDraws::SpeedDraws(const VariabilitySpec& spec, int gpus)
    : spec_(spec), gpus_(gpus), engine_(static_cast<std::uint64_t>(spec.seed)) {}

double SpeedDraws::uniform() {
  return (static_cast<double>(engine_() >> 11) + 0.5) / 9007199254740992.0;
}

double SpeedDraws::normal() {
  const double u = uniform();
  const double v = uniform();
  return std::sqrt(-2 * std::log(u)) * std::cos(2 * std::numbers::pi * v);
}

// Lognormal of mean 1 and coefficient of variation cv: exp(sigma z - sigma^2 / 2) with sigma^2 =
// ln(1 + cv^2); times the slowdown with the episode's probability.
std::vector<double> SpeedDraws::multipliers(double cv, const FailSlow& slow, int& slow_count) {
  std::vector<double> out(static_cast<std::size_t>(gpus_), 1.0);
  if (cv > 0) {
    const double sigma = std::sqrt(std::log1p(cv * cv));
    for (double& m : out) {
      m = std::exp(sigma * normal() - sigma * sigma / 2);
    }
  }
  const double p = slow.probability();
  slow_count = 0;
  if (p > 0 && slow.slowdown != 1) {
    for (double& m : out) {
      if (uniform() < p) {
        m *= slow.slowdown;
        ++slow_count;
      }
    }
  }
  return out;
}

StepDraw SpeedDraws::next() {
  StepDraw d;
  d.compute = multipliers(spec_.gpu_cv, spec_.gpu_slow, d.slow_gpus);
  d.network = multipliers(spec_.nic_cv, spec_.link_slow, d.slow_links);
  return d;
}

}  // namespace codesim::variability
