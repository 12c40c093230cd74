// Requests arriving as a Poisson process: exponential gaps at a rate, every request of the same
// lengths, drawn from a seeded generator (the same seed, the same arrivals on any machine).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/serve/request.hpp"

namespace codesim::serve {

struct PoissonArrivals {
  double rate = 1;  // requests per second
  int requests = 1000;
  int prompt_tokens = 2048;
  int cached_tokens = 0;
  int output_tokens = 256;
  int seed = 1;
};

// The first arrives after one gap from time 0.
std::vector<Request> poisson_requests(const PoissonArrivals& a);

}  // namespace codesim::serve
