// Interval union and uncovered parts.
#include "sim/metrics/intervals.hpp"

#include <algorithm>

namespace codesim::metrics {

std::vector<Interval> merged(std::vector<Interval> v) {
  std::sort(v.begin(), v.end(), [](const Interval& x, const Interval& y) { return x.a < y.a; });
  std::vector<Interval> out;
  for (const auto& i : v) {
    if (i.b <= i.a) {
      continue;
    }
    if (!out.empty() && i.a <= out.back().b) {
      out.back().b = std::max(out.back().b, i.b);
    } else {
      out.push_back(i);
    }
  }
  return out;
}

std::vector<Interval> uncovered_parts(const Interval& x, const std::vector<Interval>& cover) {
  std::vector<Interval> out;
  double at = x.a;
  const auto first = std::lower_bound(cover.begin(), cover.end(), x.a,
                                      [](const Interval& c, double t) { return c.b <= t; });
  for (auto c = first; c != cover.end() && c->a < x.b; ++c) {
    if (c->a > at) {
      out.push_back({at, c->a});
    }
    at = std::max(at, c->b);
  }
  if (at < x.b) {
    out.push_back({at, x.b});
  }
  return out;
}

double uncovered(const Interval& x, const std::vector<Interval>& cover) {
  double left = 0;
  for (const auto& i : uncovered_parts(x, cover)) {
    left += i.b - i.a;
  }
  return left;
}

}  // namespace codesim::metrics
