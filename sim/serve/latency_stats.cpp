#include "sim/serve/latency_stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace codesim::serve {

Percentiles percentiles(std::vector<double> sample) {
  if (sample.empty()) {
    return {};
  }
  std::sort(sample.begin(), sample.end());
  const auto rank = [&](double p) {
    const auto k = static_cast<std::size_t>(std::ceil(p * static_cast<double>(sample.size())));
    return sample[std::max<std::size_t>(k, 1) - 1];
  };
  return {.p50 = rank(0.50),
          .p90 = rank(0.90),
          .p99 = rank(0.99),
          .mean = std::accumulate(sample.begin(), sample.end(), 0.0) /
                  static_cast<double>(sample.size())};
}

}  // namespace codesim::serve
