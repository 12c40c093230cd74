#include "sim/serve/latency_stats.hpp"

#include <algorithm>
#include <numeric>

#include "sim/core/statistics.hpp"

namespace codesim::serve {

Percentiles percentiles(std::vector<double> sample) {
  if (sample.empty()) {
    return {};
  }
  std::sort(sample.begin(), sample.end());
  return {.p50 = core::nearest_rank(sample, 0.50),
          .p90 = core::nearest_rank(sample, 0.90),
          .p99 = core::nearest_rank(sample, 0.99),
          .mean = std::accumulate(sample.begin(), sample.end(), 0.0) /
                  static_cast<double>(sample.size())};
}

}  // namespace codesim::serve
