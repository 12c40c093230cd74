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
// ln(1 + cv^2).
std::vector<double> SpeedDraws::spread(double cv) {
  std::vector<double> out(static_cast<std::size_t>(gpus_), 1.0);
  if (cv > 0) {
    const double sigma = std::sqrt(std::log1p(cv * cv));
    for (double& m : out) {
      m = std::exp(sigma * normal() - sigma * sigma / 2);
    }
  }
  return out;
}

void SpeedDraws::slow_random(std::vector<double>& m, const FailSlow& slow, int& slow_count) {
  const double p = slow.probability();
  slow_count = 0;
  if (p <= 0 || slow.slowdown == 1) {
    return;
  }
  for (double& x : m) {
    if (uniform() < p) {
      x *= slow.slowdown;
      ++slow_count;
    }
  }
}

// `count` distinct parts, uniformly (Floyd's algorithm: count draws, no shuffle of all parts).
void SpeedDraws::slow_exactly(std::vector<double>& m, const FailSlow& slow, int count) {
  std::vector<int> chosen;
  for (int j = gpus_ - count; j < gpus_; ++j) {
    const int t = static_cast<int>(uniform() * (j + 1));
    const int pick = std::find(chosen.begin(), chosen.end(), t) == chosen.end() ? t : j;
    chosen.push_back(pick);
    m[static_cast<std::size_t>(pick)] *= slow.slowdown;
  }
}

StepDraw SpeedDraws::next() {
  StepDraw d;
  d.compute = spread(spec_.gpu_cv);
  slow_random(d.compute, spec_.gpu_slow, d.slow_gpus);
  d.network = spread(spec_.nic_cv);
  slow_random(d.network, spec_.link_slow, d.slow_links);
  return d;
}

StepDraw SpeedDraws::next(const SlowStratum& stratum) {
  if (stratum.slow < 0) {
    return next();
  }
  double u = uniform();
  int slow_gpus = stratum.slow;
  for (std::size_t a = 0; a < stratum.gpu_split.size(); ++a) {
    u -= stratum.gpu_split[a];
    if (u < 0) {
      slow_gpus = static_cast<int>(a);
      break;
    }
  }
  StepDraw d;
  d.compute = spread(spec_.gpu_cv);
  slow_exactly(d.compute, spec_.gpu_slow, slow_gpus);
  d.slow_gpus = slow_gpus;
  d.network = spread(spec_.nic_cv);
  d.slow_links = stratum.slow - slow_gpus;
  slow_exactly(d.network, spec_.link_slow, d.slow_links);
  return d;
}

namespace {

// P(k of n parts slow), k = 0 .. n (binomial, in logarithms so that no term underflows early;
// every part slow when p is 1).
std::vector<double> binomial(int n, double p) {
  std::vector<double> out(static_cast<std::size_t>(n) + 1, 0.0);
  if (p <= 0 || p >= 1) {
    out[p <= 0 ? 0 : static_cast<std::size_t>(n)] = 1;
    return out;
  }
  for (int k = 0; k <= n; ++k) {
    out[static_cast<std::size_t>(k)] =
        std::exp(std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0) +
                 k * std::log(p) + (n - k) * std::log1p(-p));
  }
  return out;
}

}  // namespace

std::vector<SlowStratum> slow_strata(const VariabilitySpec& spec, int parts) {
  const auto active = [](const FailSlow& f) { return f.slowdown != 1 ? f.probability() : 0.0; };
  const std::vector<double> g = binomial(parts, active(spec.gpu_slow));
  const std::vector<double> l = binomial(parts, active(spec.link_slow));
  std::vector<SlowStratum> out;
  double sum = 0;
  for (int k = 0; k <= 2 * parts; ++k) {
    SlowStratum s{.slow = k};
    for (int a = std::max(0, k - parts); a <= std::min(k, parts); ++a) {
      const double p = g[static_cast<std::size_t>(a)] * l[static_cast<std::size_t>(k - a)];
      s.gpu_split.resize(static_cast<std::size_t>(a) + 1, 0.0);
      s.gpu_split[static_cast<std::size_t>(a)] = p;
      s.probability += p;
    }
    sum += s.probability;
    if (s.probability > 0) {
      for (double& x : s.gpu_split) {
        x /= s.probability;
      }
      out.push_back(std::move(s));
    }
    if (1 - sum < 1e-3 || 2 * static_cast<int>(out.size()) > spec.steps) {
      break;
    }
  }
  if (1 - sum >= 1e-3) {
    // More strata than the steps can cover (many parts slow at once): one stratum whose steps
    // draw each part slow at its probability.
    return {{.slow = -1, .probability = 1, .steps = spec.steps, .gpu_split = {}}};
  }
  out.back().probability += std::max(0.0, 1 - sum);
  for (auto& s : out) {
    s.steps = out.size() == 1
                  ? spec.steps
                  : std::max(2, static_cast<int>(std::lround(spec.steps * s.probability)));
  }
  return out;
}

}  // namespace codesim::variability
