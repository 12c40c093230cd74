// Percentiles of a sample (nearest rank: the smallest value with at least p of the sample at or
// below it).
#pragma once

#include <vector>

namespace codesim::serve {

struct Percentiles {
  double p50 = 0;
  double p90 = 0;
  double p99 = 0;
  double mean = 0;
};

// Zeros for an empty sample.
Percentiles percentiles(std::vector<double> sample);

}  // namespace codesim::serve
