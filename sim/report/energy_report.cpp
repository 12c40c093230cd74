// The energy block and line of the run and inference reports.
#include "sim/report/energy_report.hpp"

#include "sim/report/format.hpp"

namespace codesim::report {

nlohmann::ordered_json energy_json(const metrics::StepEnergy& e) {
  return {{"step_j", e.total_j()},
          {"per_token_j", e.per_token_j},
          {"gpu_compute_j", e.gpu_compute_j},
          {"gpu_waiting_j", e.gpu_waiting_j},
          {"network_j", e.network_j},
          {"host_j", e.host_j},
          {"gpu_power_w", e.gpu_power_w},
          {"power_limit_w", e.power_limit_w},
          {"sm_clock_min_mhz", e.min_clock_mhz},
          {"sm_clock_max_mhz", e.max_clock_mhz},
          {"power_bound", e.power_bound}};
}

std::string energy_line(const metrics::StepEnergy& e) {
  const std::string clock = e.min_clock_mhz == e.max_clock_mhz
                                ? fixed(e.min_clock_mhz, 0)
                                : fixed(e.min_clock_mhz, 0) + "-" + fixed(e.max_clock_mhz, 0);
  // Joules in the unit of the step's total: J, kJ or MJ.
  const double unit = e.total_j() >= 1e6 ? 1e6 : (e.total_j() >= 1e3 ? 1e3 : 1);
  const std::string name = unit == 1e6 ? " MJ" : (unit == 1e3 ? " kJ" : " J");
  auto j = [&](double x) { return fixed(x / unit, 3); };
  return "energy per step: " + j(e.total_j()) + name + " (" + fixed(e.per_token_j, 3) +
         " J per token): GPUs computing " + j(e.gpu_compute_j) + ", GPUs waiting " +
         j(e.gpu_waiting_j) + ", network " + j(e.network_j) + ", hosts " + j(e.host_j) + name +
         "; GPU board " + fixed(e.gpu_power_w, 0) + " W of " + fixed(e.power_limit_w, 0) +
         " W, SM clock " + clock + " MHz" +
         (e.power_bound ? " (power-bound: the limit sets the clock)" : "");
}

}  // namespace codesim::report
