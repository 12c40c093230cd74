// A trace's ops on the list scheduler, with their measured slack.
#include "sim/workload/replay.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "sim/core/list_schedule.hpp"

namespace codesim::workload {

Timeline replay(const StepTrace& t, const std::vector<double>& duration_us) {
  if (duration_us.size() != t.ops.size()) {
    throw std::invalid_argument("replay: " + std::to_string(duration_us.size()) +
                                " durations for " + std::to_string(t.ops.size()) + " ops");
  }
  const Timeline measured = measured_timeline(t);
  std::unordered_map<int, std::size_t> index;
  for (std::size_t i = 0; i < t.ops.size(); ++i) {
    index[t.ops[i].id] = i;
  }
  // Queues: each (rank, stream) in listed order (ops are listed in stream order).
  core::TaskGraph g;
  g.deps.resize(t.ops.size());
  std::map<std::pair<int, int>, std::size_t> queue_of;
  for (std::size_t i = 0; i < t.ops.size(); ++i) {
    const auto key = std::make_pair(t.ops[i].rank, t.ops[i].stream);
    const auto [it, added] = queue_of.emplace(key, g.queues.size());
    if (added) {
      g.queues.emplace_back();
    }
    g.queues[it->second].push_back(static_cast<int>(i));
    for (int d : t.ops[i].deps) {
      g.deps[i].push_back(static_cast<int>(index.at(d)));
    }
  }
  double origin = 0;
  if (!measured.start_us.empty()) {
    origin = *std::min_element(measured.start_us.begin(), measured.start_us.end());
  }
  const std::vector<int> previous = core::queue_predecessors(g);  // on its queue
  Timeline out;
  out.duration_us = duration_us;
  // Each op after its predecessors, plus the time it waited beyond them when measured.
  const auto spans = core::list_schedule(g, [&](int op, double ready) {
    const auto i = static_cast<std::size_t>(op);
    // When its queue predecessor and dependencies ended as measured.
    double ready_measured = origin;
    const auto wait_for = [&](int p) {
      const auto k = static_cast<std::size_t>(p);
      ready_measured = std::max(ready_measured, measured.start_us[k] + measured.duration_us[k]);
    };
    if (previous[i] >= 0) {
      wait_for(previous[i]);
    }
    std::ranges::for_each(g.deps[i], wait_for);
    const double start =
        std::max(origin, ready) + std::max(0.0, measured.start_us[i] - ready_measured);
    return core::TaskSpan{start, start + duration_us[i]};
  });
  out.start_us.reserve(spans.size());
  for (const core::TaskSpan& span : spans) {
    out.start_us.push_back(span.start);
  }
  return out;
}

std::vector<double> scaled_durations(const StepTrace& t, const hardware::GpuSpec& from,
                                     const hardware::GpuSpec& to) {
  std::vector<double> out;
  out.reserve(t.ops.size());
  for (const Op& op : t.ops) {
    const double measured = op.measured_us.value_or(0.0);
    double ratio = 1.0;
    switch (op.op_class) {
      case cost::KernelClass::gemm:
      case cost::KernelClass::grouped_gemm:
      case cost::KernelClass::attention_forward:
      case cost::KernelClass::attention_backward: {
        const bool fp8 = op.dtype == cost::DType::fp8 &&
                         op.op_class != cost::KernelClass::attention_forward &&
                         op.op_class != cost::KernelClass::attention_backward;
        ratio = (fp8 ? from.fp8_peak : from.bf16_peak) / (fp8 ? to.fp8_peak : to.bf16_peak);
        break;
      }
      case cost::KernelClass::communication:
        ratio = 1.0;
        break;
      default:
        ratio = from.hbm_bandwidth.value / to.hbm_bandwidth.value;
        break;
    }
    out.push_back(measured * ratio);
  }
  return out;
}

}  // namespace codesim::workload
