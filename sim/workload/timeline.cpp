// Interval unions and intersections over a timeline.
#include "sim/workload/timeline.hpp"

#include <algorithm>
#include <stdexcept>

namespace codesim::workload {
namespace {

using Intervals = std::vector<std::pair<double, double>>;

Intervals merged(Intervals v) {
  std::sort(v.begin(), v.end());
  Intervals out;
  for (const auto& [a, b] : v) {
    if (!out.empty() && a <= out.back().second) {
      out.back().second = std::max(out.back().second, b);
    } else {
      out.emplace_back(a, b);
    }
  }
  return out;
}

double length(const Intervals& v) {
  double total = 0;
  for (const auto& [a, b] : v) {
    total += b - a;
  }
  return total;
}

// Length of the intersection of two merged interval lists.
double intersection(const Intervals& x, const Intervals& y) {
  double total = 0;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < x.size() && j < y.size()) {
    const double lo = std::max(x[i].first, y[j].first);
    const double hi = std::min(x[i].second, y[j].second);
    total += std::max(0.0, hi - lo);
    if (x[i].second < y[j].second) {
      ++i;
    } else {
      ++j;
    }
  }
  return total;
}

}  // namespace

Timeline measured_timeline(const StepTrace& t) {
  Timeline tl;
  for (const Op& op : t.ops) {
    if (!op.start_us || !op.measured_us) {
      throw std::invalid_argument("op " + std::to_string(op.id) +
                                  " has no measured start and duration");
    }
    tl.start_us.push_back(*op.start_us);
    tl.duration_us.push_back(*op.measured_us);
  }
  return tl;
}

TimelineSummary summarize(const StepTrace& t, const Timeline& tl) {
  TimelineSummary s;
  s.ops = static_cast<int>(t.ops.size());
  std::map<std::pair<int, int>, Intervals> by_stream;
  std::map<std::pair<int, int>, int> count;
  Intervals communication;
  Intervals compute;
  double first = 0;
  double last = 0;
  for (std::size_t i = 0; i < t.ops.size(); ++i) {
    const Op& op = t.ops[i];
    const double a = tl.start_us[i];
    const double b = a + tl.duration_us[i];
    first = i == 0 ? a : std::min(first, a);
    last = i == 0 ? b : std::max(last, b);
    (op.op_class == cost::KernelClass::memcpy ? s.memory_ops : s.kernels) += 1;
    by_stream[{op.rank, op.stream}].emplace_back(a, b);
    ++count[{op.rank, op.stream}];
    (op.op_class == cost::KernelClass::communication ? communication : compute).emplace_back(a, b);
    auto& piece = s.pieces[op.tags.piece];
    ++piece.ops;
    piece.time_us += tl.duration_us[i];
    auto& cls = s.classes[std::string(cost::kernel_class_name(op.op_class))];
    ++cls.ops;
    cls.time_us += tl.duration_us[i];
  }
  s.span_us = last - first;
  for (auto& [key, intervals] : by_stream) {
    s.streams.push_back({key.first, key.second, count[key], length(merged(intervals))});
  }
  const Intervals comm = merged(communication);
  const Intervals comp = merged(compute);
  s.communication_busy_us = length(comm);
  s.compute_busy_us = length(comp);
  s.overlap_us = intersection(comm, comp);
  return s;
}

}  // namespace codesim::workload
