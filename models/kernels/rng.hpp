// A small seeded random generator whose output is the same on every platform (std's
// distributions are implementation-defined): xoshiro256** seeded by splitmix64.
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>
#include <vector>

namespace codesim::kernels {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) {
    for (auto& s : state_) {
      seed += 0x9E3779B97F4A7C15ULL;
      std::uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
      s = z ^ (z >> 31);
    }
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // Standard normal (Box-Muller).
  double normal() {
    const double u1 = 1.0 - uniform();
    const double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
  }

  // Index in [0, n).
  int below(int n) { return static_cast<int>(uniform() * n); }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t state_[4]{};
};

// Draws indices 0..n-1 with probability proportional to 1 / (i + 1)^s (s = 0: uniform).
class ZipfSampler {
 public:
  ZipfSampler(int n, double s) : cdf_(n) {
    double total = 0;
    for (int i = 0; i < n; ++i) {
      total += 1.0 / std::pow(i + 1.0, s);
      cdf_[i] = total;
    }
    for (auto& c : cdf_) {
      c /= total;
    }
  }
  int operator()(Rng& rng) const {
    const double u = rng.uniform();
    int lo = 0;
    int hi = static_cast<int>(cdf_.size()) - 1;
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      if (cdf_[mid] > u) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

 private:
  std::vector<double> cdf_;
};

}  // namespace codesim::kernels
