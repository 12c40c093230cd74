// A step's energy from its ranks' work and clocks.
#include "sim/metrics/step_energy.hpp"

#include <algorithm>

namespace codesim::metrics {

StepEnergy step_energy(const std::vector<cost::Work>& rank_work, const std::vector<double>& clock,
                       core::Seconds step, const hardware::PowerSpec& power,
                       const JobDevices& devices, const FacilityPower& facility,
                       double tokens_per_step) {
  StepEnergy e;
  e.power_limit_w = power.limit_w;
  e.min_clock_mhz = power.max_clock_mhz;
  for (std::size_t r = 0; r < rank_work.size(); ++r) {
    const double ratio = clock[r];
    const core::Seconds busy = std::min(step, cost::time_at(rank_work[r], ratio, power));
    e.gpu_compute_j += devices.gpus_per_rank *
                       (power.awake_w * busy.value +
                        cost::dynamic_energy_j(rank_work[r], ratio, power));
    e.gpu_waiting_j += devices.gpus_per_rank * power.awake_w * (step - busy).value;
    e.min_clock_mhz = std::min(e.min_clock_mhz, ratio * power.max_clock_mhz);
    e.max_clock_mhz = std::max(e.max_clock_mhz, ratio * power.max_clock_mhz);
    e.power_bound = e.power_bound || ratio < 1;
  }
  const double gpus = devices.gpus_per_rank * static_cast<double>(rank_work.size());
  e.gpu_power_w = gpus > 0 && step.value > 0
                      ? (e.gpu_compute_j + e.gpu_waiting_j) / (gpus * step.value)
                      : 0;
  e.network_j = (devices.nics * facility.nic_w + devices.switches * facility.switch_w) * step.value;
  e.host_j = devices.nodes * facility.host_w * step.value;
  e.per_token_j = tokens_per_step > 0 ? e.total_j() / tokens_per_step : 0;
  return e;
}

}  // namespace codesim::metrics
