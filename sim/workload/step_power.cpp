// Each rank's governed clock over a step, and the stages' clocks from their ranks'.
#include "sim/workload/step_power.hpp"

#include <algorithm>

namespace codesim::workload {

StepPower govern_step(const std::vector<cost::Work>& rank_work,
                      const std::vector<core::Seconds>& waiting, const PipelineSchedule& schedule,
                      const hardware::PowerSpec& power, bool trace_clocks) {
  StepPower out;
  std::vector<double> clock_sum(static_cast<std::size_t>(schedule.stages), 0.0);
  std::vector<int> clock_ranks(static_cast<std::size_t>(schedule.stages), 0);
  for (std::size_t r = 0; r < rank_work.size(); ++r) {
    const cost::Work& w = rank_work[r];
    cost::Governed g = cost::govern(w, waiting[r], power);
    if (trace_clocks) {
      hardware::PowerSpec at_default = power;
      at_default.limit_w = power.tdp_w;
      const double reference = cost::govern(w, waiting[r], at_default).ratio;
      g.ratio = std::min(1.0, g.ratio / reference);
      g.power_bound = g.ratio < 1;
    }
    out.power_bound = out.power_bound || g.power_bound;
    for (const int st : schedule.stages_of(static_cast<int>(r))) {
      clock_sum[static_cast<std::size_t>(st)] += g.ratio;
      ++clock_ranks[static_cast<std::size_t>(st)];
    }
    out.ranks.push_back(g);
  }
  for (std::size_t st = 0; st < clock_sum.size(); ++st) {
    out.stage_clock.push_back(clock_ranks[st] > 0 ? clock_sum[st] / clock_ranks[st] : 1.0);
  }
  return out;
}

std::vector<core::Seconds> short_gaps(std::vector<ComputeSpan> spans, int ranks, core::Seconds step,
                                      core::Seconds window) {
  std::ranges::sort(spans, [](const ComputeSpan& a, const ComputeSpan& b) {
    return a.rank != b.rank ? a.rank < b.rank : a.start < b.start;
  });
  std::vector<core::Seconds> out(static_cast<std::size_t>(ranks), core::Seconds(0));
  std::vector<core::Seconds> free_from(static_cast<std::size_t>(ranks), core::Seconds(0));
  auto count = [&](int rank, core::Seconds gap) {
    if (gap.value > 0 && gap < window) {
      out[static_cast<std::size_t>(rank)] += gap;
    }
  };
  for (const ComputeSpan& sp : spans) {
    core::Seconds& from = free_from[static_cast<std::size_t>(sp.rank)];
    count(sp.rank, sp.start - from);
    from = std::max(from, sp.end);
  }
  for (int r = 0; r < ranks; ++r) {
    count(r, step - free_from[static_cast<std::size_t>(r)]);
  }
  return out;
}

}  // namespace codesim::workload
