// A step's energy (metrics::StepEnergy) as the run and inference reports write it: its JSON block
// and its terminal line.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "sim/metrics/step_energy.hpp"

namespace codesim::report {

// Keys: step_j, per_token_j, gpu_compute_j, gpu_waiting_j, network_j, host_j, gpu_power_w,
// power_limit_w, sm_clock_min_mhz, sm_clock_max_mhz, power_bound.
nlohmann::ordered_json energy_json(const metrics::StepEnergy& e);

// "energy per step: 0.185 kJ (0.023 J per token): GPUs computing ..., SM clock 1641 MHz
// (power-bound: the limit sets the clock)".
std::string energy_line(const metrics::StepEnergy& e);

}  // namespace codesim::report
