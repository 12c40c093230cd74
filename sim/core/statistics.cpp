#include "sim/core/statistics.hpp"

#include <algorithm>
#include <cmath>

namespace codesim::core {

double nearest_rank(const std::vector<double>& sorted, double p) {
  const auto k = static_cast<std::size_t>(std::ceil(p * static_cast<double>(sorted.size())));
  return sorted[std::clamp<std::size_t>(k, 1, sorted.size()) - 1];
}

}  // namespace codesim::core
