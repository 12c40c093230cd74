// The one interval algebra over time spans: the union of a set (a stream's busy time), what part
// of a span others do not cover (exposed communication), a union's length and the overlap of two
// (communication under compute in a trace). Empty intervals (end <= start) count for nothing.
#pragma once

#include <vector>

namespace codesim::core {

struct Interval {
  double a = 0;  // start
  double b = 0;  // end
};

// The union of `v` as sorted, disjoint intervals (empty ones dropped).
std::vector<Interval> merged(std::vector<Interval> v);

// The parts of `x` not covered by the sorted, disjoint `cover`.
std::vector<Interval> uncovered_parts(const Interval& x, const std::vector<Interval>& cover);

// Their total length.
double uncovered(const Interval& x, const std::vector<Interval>& cover);

// The total length of sorted, disjoint intervals (a union from `merged`).
double length(const std::vector<Interval>& v);

// The length of the intersection of two unions (each sorted and disjoint, from `merged`).
double overlap(const std::vector<Interval>& x, const std::vector<Interval>& y);

}  // namespace codesim::core
