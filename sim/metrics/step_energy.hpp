// Energy of one training step over the whole job (docs/model/power.md): each pipeline rank's
// GPUs at their governed clocks (models/cost/clock_model.hpp), busy with their kernels and awake
// while they wait, and the network and hosts at their stated power for the step's time.
#pragma once

#include <vector>

#include "models/cost/clock_model.hpp"
#include "models/hardware/hardware_spec.hpp"
#include "sim/core/units.hpp"
#include "sim/workload/step_power.hpp"

namespace codesim::metrics {

using workload::FacilityPower;  // host_w per node of JobDevices::nodes

struct StepEnergy {
  double gpu_compute_j = 0;  // boards while their kernels run
  double gpu_waiting_j = 0;  // boards awake while they wait on communication and bubbles
  double network_j = 0;      // NICs and switches
  double host_j = 0;         // nodes besides GPUs and NICs
  double per_token_j = 0;
  double gpu_power_w = 0;  // mean board power, over the job's GPUs
  double power_limit_w = 0;
  double min_clock_mhz = 0;  // the governed SM clocks of the pipeline ranks
  double max_clock_mhz = 0;
  bool power_bound = false;  // some rank's clock is set by the power limit
  double total_j() const { return gpu_compute_j + gpu_waiting_j + network_j + host_j; }
};

// Where the job's devices are: its GPUs per pipeline rank, its NICs, switches and nodes.
struct JobDevices {
  double gpus_per_rank = 1;
  double nics = 0;
  double switches = 0;
  double nodes = 0;  // hosts, in the units FacilityPower::host_w is given for
};

StepEnergy step_energy(const std::vector<cost::Work>& rank_work, const std::vector<double>& clock,
                       core::Seconds step, const hardware::PowerSpec& power,
                       const JobDevices& devices, const FacilityPower& facility,
                       double tokens_per_step);

}  // namespace codesim::metrics
