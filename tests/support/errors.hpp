// Error summaries of predictions against measurements.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

namespace codesim::testing {

// Median and largest absolute relative error (the list holds |predicted / measured - 1|).
inline std::pair<double, double> median_and_worst(std::vector<double> errors) {
  std::sort(errors.begin(), errors.end());
  const double median = (errors[errors.size() / 2] + errors[(errors.size() - 1) / 2]) / 2;
  return {median, errors.back()};
}

}  // namespace codesim::testing
