#include "sim/serve/arrivals.hpp"

#include <cmath>
#include <random>

namespace codesim::serve {

std::vector<Request> poisson_requests(const PoissonArrivals& a) {
  // std::mt19937_64's sequence is fixed by the standard; the exponential gap is drawn from it by
  // inversion here (std::exponential_distribution's algorithm is the library's own).
  std::mt19937_64 engine(static_cast<std::uint64_t>(a.seed));
  std::vector<Request> out;
  out.reserve(static_cast<std::size_t>(a.requests));
  double t = 0;
  for (int i = 0; i < a.requests; ++i) {
    // (engine() + 0.5) / 2^64 is uniform on (0, 1): its log is finite.
    const double u = (static_cast<double>(engine() >> 11) + 0.5) / 9007199254740992.0;
    t += -std::log(u) / a.rate;
    out.push_back({core::Seconds(t), a.prompt_tokens, a.cached_tokens, a.output_tokens});
  }
  return out;
}

}  // namespace codesim::serve
