// Interval union, uncovered parts, length and overlap.
#include "sim/core/intervals.hpp"

#include <algorithm>

namespace codesim::core {

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
  return length(uncovered_parts(x, cover));
}

double length(const std::vector<Interval>& v) {
  double total = 0;
  for (const auto& i : v) {
    total += i.b - i.a;
  }
  return total;
}

double overlap(const std::vector<Interval>& x, const std::vector<Interval>& y) {
  double total = 0;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < x.size() && j < y.size()) {
    total += std::max(0.0, std::min(x[i].b, y[j].b) - std::max(x[i].a, y[j].a));
    if (x[i].b < y[j].b) {
      ++i;
    } else {
      ++j;
    }
  }
  return total;
}

}  // namespace codesim::core
