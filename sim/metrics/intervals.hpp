// Time intervals of a replayed step: merging the busy spans of a stream, and what part of a span
// a set of others does not cover (exposed communication).
#pragma once

#include <vector>

namespace codesim::metrics {

struct Interval {
  double a = 0;  // start, seconds
  double b = 0;  // end
};

// The union of `v` as sorted, disjoint intervals (empty ones dropped).
std::vector<Interval> merged(std::vector<Interval> v);

// The parts of `x` not covered by the sorted, disjoint `cover`.
std::vector<Interval> uncovered_parts(const Interval& x, const std::vector<Interval>& cover);

// Their total length.
double uncovered(const Interval& x, const std::vector<Interval>& cover);

}  // namespace codesim::metrics
