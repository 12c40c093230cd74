// List schedule with measured slack.
#include "sim/workload/replay.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <unordered_map>

namespace codesim::workload {

Timeline replay(const StepTrace& t, const std::vector<double>& duration_us) {
  const Timeline measured = measured_timeline(t);
  std::unordered_map<int, std::size_t> index;
  for (std::size_t i = 0; i < t.ops.size(); ++i) {
    index[t.ops[i].id] = i;
  }
  // Predecessors: stream order plus dependencies (ops are listed in stream order).
  std::vector<std::vector<std::size_t>> preds(t.ops.size());
  std::map<std::pair<int, int>, std::size_t> last;
  for (std::size_t i = 0; i < t.ops.size(); ++i) {
    const auto key = std::make_pair(t.ops[i].rank, t.ops[i].stream);
    if (const auto it = last.find(key); it != last.end()) {
      preds[i].push_back(it->second);
    }
    last[key] = i;
    for (int d : t.ops[i].deps) {
      preds[i].push_back(index.at(d));
    }
  }
  // Process in measured start order, which respects every edge of a measured trace.
  std::vector<std::size_t> order(t.ops.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    order[i] = i;
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return measured.start_us[a] < measured.start_us[b];
  });
  const double origin = measured.start_us.empty() ? 0.0 : measured.start_us[order.front()];
  Timeline out;
  out.start_us.assign(t.ops.size(), 0.0);
  out.duration_us = duration_us;
  std::vector<bool> done(t.ops.size(), false);
  for (const std::size_t i : order) {
    double ready_measured = origin;
    double ready = origin;
    for (const std::size_t p : preds[i]) {
      if (!done[p]) {
        throw std::invalid_argument("op " + std::to_string(t.ops[i].id) +
                                    " starts before an op it waits for");
      }
      ready_measured = std::max(ready_measured, measured.start_us[p] + measured.duration_us[p]);
      ready = std::max(ready, out.start_us[p] + out.duration_us[p]);
    }
    const double slack = std::max(0.0, measured.start_us[i] - ready_measured);
    out.start_us[i] = ready + slack;
    done[i] = true;
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
