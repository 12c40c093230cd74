#include "sim/variability/speed_draw.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <string>

#include "sim/core/error.hpp"
#include "sim/core/quantity_parse.hpp"
#include "sim/core/text.hpp"

namespace codesim::variability {

double FailSlow::probability() const {
  return std::min(1.0, per_1000_part_days / 1000.0 * duration.value / 86400.0);
}

double StepDraw::pace_over(std::size_t gpu, double t, double duration) const {
  const float* p = pace.data() + gpu * static_cast<std::size_t>(blocks);
  if (blocks == 1) {
    return p[0];
  }
  const double from = t / block_s;
  const double to = (t + duration) / block_s;
  const int last = blocks - 1;
  const int b0 = std::min(static_cast<int>(from), last);
  const int b1 = std::min(static_cast<int>(to), last);
  if (b0 == b1) {
    return p[b0];
  }
  // Whole blocks between the ends, and the parts of the two end blocks.
  double sum = p[b0] * (b0 + 1 - from);
  for (int b = b0 + 1; b < b1; ++b) {
    sum += p[b];
  }
  sum += p[b1] * (std::min(to, static_cast<double>(blocks)) - b1);
  return sum / (std::min(to, static_cast<double>(blocks)) - from);
}

namespace {

// The log-space deviation of a lognormal of coefficient of variation cv: sigma^2 = ln(1 + cv^2).
double sigma_of(double cv) {
  return std::sqrt(std::log1p(cv * cv));
}

}  // namespace

double duty_cv_share(double duty) {
  // (busy fraction, cv / flat-out cv) as measured: 0.0052 / 0.0454 and 0.0243 / 0.0454.
  constexpr std::array<std::array<double, 2>, 4> kMeasured{
      {{0.0, 0.0}, {0.5, 0.0052 / 0.0454}, {0.8, 0.0243 / 0.0454}, {1.0, 1.0}}};
  const double d = std::clamp(duty, 0.0, 1.0);
  for (std::size_t i = 1; i < kMeasured.size(); ++i) {
    const auto& [x0, y0] = kMeasured[i - 1];
    const auto& [x1, y1] = kMeasured[i];
    if (d <= x1) {
      return y0 + (y1 - y0) * (d - x0) / (x1 - x0);
    }
  }
  return 1.0;
}

double pace_blocks(const VariabilitySpec& spec, double horizon) {
  const double interval = spec.gpu_pace_interval.value;
  return interval > 0 ? std::max(1.0, std::ceil(horizon / interval)) : 1.0;
}

SpeedDraws::SpeedDraws(const VariabilitySpec& spec, int gpus, double horizon,
                       const std::vector<double>& duty)
    : spec_(spec),
      gpus_(gpus),
      horizon_(horizon),
      pace_sigma_(static_cast<std::size_t>(gpus), sigma_of(spec.gpu_cv)),
      engine_(static_cast<std::uint64_t>(spec.seed)) {
  // The pace table (a float per GPU and block) counts in the replay's memory: refused before it
  // is allocated, and before a count of blocks past an int's range could be taken.
  const double blocks = pace_blocks(spec, horizon);
  const double bytes = blocks * gpus * static_cast<double>(sizeof(float));
  if (bytes > spec.replay_memory.value || blocks > 1e9) {
    throw core::KeyedError(
        "variability.gpu_pace_interval",
        "a pace every " + core::format_number(spec.gpu_pace_interval.value) + " s over the " +
            core::fixed(horizon, 3) + " s the draws cover, for " + std::to_string(gpus) +
            " GPUs, is " + core::format_number(blocks * gpus) + " paces (" +
            core::megabytes(bytes) + " MB), more than variability.replay_memory (" +
            core::megabytes(spec.replay_memory.value) + " MB)",
        "use a longer interval (the H200's spread was fitted at 20ms) or raise "
        "variability.replay_memory");
  }
  if (spec.cv_by_duty && !duty.empty()) {
    for (std::size_t g = 0; g < pace_sigma_.size(); ++g) {
      pace_sigma_[g] = sigma_of(spec.gpu_cv * duty_cv_share(duty.at(g)));
    }
  }
}

double SpeedDraws::uniform() {
  return (static_cast<double>(engine_() >> 11) + 0.5) / 9007199254740992.0;
}

// Box-Muller: two independent normals per pair of uniforms, the second kept for the next call.
double SpeedDraws::normal() {
  if (spare_) {
    const double z = *spare_;
    spare_.reset();
    return z;
  }
  const double r = std::sqrt(-2 * std::log(uniform()));
  const double angle = 2 * std::numbers::pi * uniform();
  spare_ = r * std::sin(angle);
  return r * std::cos(angle);
}

// Lognormal of mean 1: exp(sigma z - sigma^2 / 2).
double SpeedDraws::lognormal(double sigma) {
  return std::exp(sigma * normal() - sigma * sigma / 2);
}

std::vector<double> SpeedDraws::spread(double cv) {
  std::vector<double> out(static_cast<std::size_t>(gpus_), 1.0);
  if (cv > 0) {
    const double sigma = sigma_of(cv);
    for (double& m : out) {
      m = lognormal(sigma);
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

// Per GPU and block a lognormal pace; the mean over the first two thirds of the horizon (the
// identical-replica step) for choose_units.
void SpeedDraws::draw_pace(StepDraw& d) {
  const double interval = spec_.gpu_pace_interval.value;
  d.blocks = static_cast<int>(pace_blocks(spec_, horizon_));  // within replay_memory: small
  d.block_s = interval > 0 ? interval : horizon_;
  d.pace.assign(static_cast<std::size_t>(gpus_) * static_cast<std::size_t>(d.blocks), 1.0F);
  d.mean_pace.assign(static_cast<std::size_t>(gpus_), 1.0);
  if (spec_.gpu_cv <= 0) {
    return;
  }
  const int step_blocks = std::max(1, (2 * d.blocks + 2) / 3);
  for (std::size_t g = 0; g < d.mean_pace.size(); ++g) {
    float* p = d.pace.data() + g * static_cast<std::size_t>(d.blocks);
    double sum = 0;
    for (int b = 0; b < d.blocks; ++b) {
      p[b] = static_cast<float>(lognormal(pace_sigma_[g]));
      sum += b < step_blocks ? p[b] : 0.0;
    }
    d.mean_pace[g] = sum / step_blocks;
  }
}

StepDraw SpeedDraws::next() {
  StepDraw d;
  draw_pace(d);
  d.compute.assign(static_cast<std::size_t>(gpus_), 1.0);
  slow_random(d.compute, spec_.gpu_slow, d.slow_gpus);
  d.network = spread(spec_.nic_cv);
  slow_random(d.network, spec_.link_slow, d.slow_links);
  return d;
}

StepDraw SpeedDraws::next(const SlowStratum& stratum) {
  if (stratum.gpus < 0) {
    return next();
  }
  StepDraw d;
  draw_pace(d);
  d.compute.assign(static_cast<std::size_t>(gpus_), 1.0);
  slow_exactly(d.compute, spec_.gpu_slow, stratum.gpus);
  d.slow_gpus = stratum.gpus;
  d.network = spread(spec_.nic_cv);
  slow_exactly(d.network, spec_.link_slow, stratum.links);
  d.slow_links = stratum.links;
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
  // Counts beyond which either binomial has less than 1e-4 left cannot matter at 1e-3.
  const auto reach = [](const std::vector<double>& p) {
    double sum = 0;
    std::size_t k = 0;
    while (k < p.size() && 1 - sum >= 1e-4) {
      sum += p[k++];
    }
    return std::max<std::size_t>(k, 1);
  };
  std::vector<SlowStratum> all;
  for (std::size_t a = 0; a < reach(g); ++a) {
    for (std::size_t b = 0; b < reach(l); ++b) {
      if (g[a] * l[b] > 0) {
        all.push_back({.gpus = static_cast<int>(a),
                       .links = static_cast<int>(b),
                       .probability = g[a] * l[b]});
      }
    }
  }
  std::stable_sort(all.begin(), all.end(), [](const SlowStratum& x, const SlowStratum& y) {
    return x.probability > y.probability;
  });
  std::vector<SlowStratum> out;
  double sum = 0;
  for (const SlowStratum& s : all) {
    if (1 - sum < 1e-3) {
      break;
    }
    out.push_back(s);
    sum += s.probability;
  }
  if (1 - sum >= 1e-3 || static_cast<int>(out.size()) > spec.steps) {
    // More strata than the steps can cover (many parts slow at once): one stratum whose steps
    // draw each part slow at its probability.
    return {{.gpus = -1, .links = -1, .probability = 1, .steps = spec.steps}};
  }
  out.back().probability += 1 - sum;
  for (auto& s : out) {
    s.steps = out.size() == 1
                  ? spec.steps
                  : std::max(1, static_cast<int>(std::lround(spec.steps * s.probability)));
  }
  return out;
}

}  // namespace codesim::variability
