// Error summaries of predictions against measurements.
#pragma once

#include <algorithm>
#include <iostream>
#include <string_view>
#include <utility>
#include <vector>

namespace codesim::testing {

// Median and largest absolute relative error (the list holds |predicted / measured - 1|).
inline std::pair<double, double> median_and_worst(std::vector<double> errors) {
  std::sort(errors.begin(), errors.end());
  const double median = (errors[errors.size() / 2] + errors[(errors.size() - 1) / 2]) / 2;
  return {median, errors.back()};
}

// The same, printed as "label: n held out, median x%, worst y%" (the tables the READMEs copy).
inline std::pair<double, double> held_out_summary(std::string_view label,
                                                  const std::vector<double>& errors) {
  const auto [median, worst] = median_and_worst(errors);
  std::cout << label << ": " << errors.size() << " held out, median " << 100 * median << "%, worst "
            << 100 * worst << "%\n";
  return {median, worst};
}

}  // namespace codesim::testing
