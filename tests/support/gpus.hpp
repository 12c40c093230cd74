// GPU groups for the engine tests.
#pragma once

#include <numeric>
#include <vector>

namespace codesim::testing {

// GPUs 0 .. n-1.
inline std::vector<int> first_gpus(int n) {
  std::vector<int> g(static_cast<std::size_t>(n));
  std::iota(g.begin(), g.end(), 0);
  return g;
}

}  // namespace codesim::testing
