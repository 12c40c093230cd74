// A trace's measured timeline and what its streams were busy with (core/intervals.hpp).
#include "sim/workload/timeline.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/core/intervals.hpp"

namespace codesim::workload {

namespace {
using Intervals = std::vector<core::Interval>;  // microseconds
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
    by_stream[{op.rank, op.stream}].push_back({a, b});
    ++count[{op.rank, op.stream}];
    (op.op_class == cost::KernelClass::communication ? communication : compute).push_back({a, b});
    auto& piece = s.pieces[op.tags.piece];
    ++piece.ops;
    piece.time_us += tl.duration_us[i];
    auto& cls = s.classes[std::string(cost::kernel_class_name(op.op_class))];
    ++cls.ops;
    cls.time_us += tl.duration_us[i];
  }
  s.span_us = last - first;
  for (auto& [key, intervals] : by_stream) {
    s.streams.push_back({key.first, key.second, count[key], core::length(core::merged(intervals))});
  }
  const Intervals comm = core::merged(communication);
  const Intervals comp = core::merged(compute);
  s.communication_busy_us = core::length(comm);
  s.compute_busy_us = core::length(comp);
  s.overlap_us = core::overlap(comm, comp);
  return s;
}

}  // namespace codesim::workload
