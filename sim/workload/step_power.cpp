// Each rank's governed clock over a step, and the stages' clocks from their ranks'.
#include "sim/workload/step_power.hpp"

#include <algorithm>

#include "sim/core/text.hpp"

namespace codesim::workload {

cost::Governed govern_stack(const cost::Work& work, core::Seconds waiting,
                            const hardware::PowerSpec& power, bool trace_clocks) {
  cost::Governed g = cost::govern(work, waiting, power);
  if (trace_clocks) {
    hardware::PowerSpec at_default = power;
    at_default.limit_w = power.tdp_w;
    const double reference = cost::govern(work, waiting, at_default).ratio;
    g.ratio = std::min(1.0, g.ratio / reference);
    g.power_bound = g.ratio < 1;
  }
  return g;
}

std::vector<core::Note> power_notes(const hardware::PowerSpec& power,
                                    const FacilityPower& facility) {
  const std::string limit = "hardware.power_limit " + core::fixed(power.limit_w, 0) + " W";
  std::vector<core::Note> out;
  if (power.carried) {
    out.push_back({core::NoteKind::assumed,
                   "power: the SM clock under " + limit +
                       " and the energy from the H200's measured power model carried to this "
                       "GPU (wattages scaled by its " +
                       core::fixed(power.tdp_w, 0) +
                       " W TDP over 700 W, clock responses kept; docs/model/power.md): not "
                       "measured on it"});
  } else {
    out.push_back({core::NoteKind::fitted,
                   "power: the SM clock under " + limit +
                       " and the energy from the power model fitted to the power and clock runs "
                       "of models/calibration/" +
                       std::string(power.measured_on) + "/power (docs/model/power.md)"});
  }
  out.push_back(
      {core::NoteKind::assumed,
       "energy beside the GPUs as stated, not measured: " + core::fixed(facility.nic_w, 0) +
           " W per NIC, " + core::fixed(facility.switch_w, 0) + " W per switch, " +
           core::fixed(facility.host_w, 0) +
           " W of host per 8 GPUs (hardware.nic_power, switch_power, host_power)"});
  return out;
}

StepPower govern_step(const std::vector<cost::Work>& rank_work,
                      const std::vector<core::Seconds>& waiting, const PipelineSchedule& schedule,
                      const hardware::PowerSpec& power, bool trace_clocks) {
  StepPower out;
  std::vector<double> clock_sum(static_cast<std::size_t>(schedule.stages), 0.0);
  std::vector<int> clock_ranks(static_cast<std::size_t>(schedule.stages), 0);
  for (std::size_t r = 0; r < rank_work.size(); ++r) {
    const cost::Governed g = govern_stack(rank_work[r], waiting[r], power, trace_clocks);
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
