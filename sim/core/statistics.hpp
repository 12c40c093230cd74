// Order statistics of a sample.
#pragma once

#include <vector>

namespace codesim::core {

// The nearest-rank percentile of a sorted, non-empty sample: the smallest value with at least a
// fraction p of the sample at or below it.
double nearest_rank(const std::vector<double>& sorted, double p);

}  // namespace codesim::core
