// The serving run's energy from its instances' steps and rest.
#include "sim/study/serve_energy.hpp"

#include "sim/config/topology_from.hpp"
#include "sim/study/scenario_inputs.hpp"

namespace codesim::study {

std::optional<metrics::ServeEnergy> serve_energy(const InstanceUse& prefill,
                                                 const InstanceUse& decode, core::Seconds horizon,
                                                 double output_tokens) {
  const hardware::PowerSpec& power = prefill.scenario->hardware.spec.gpu.power;
  if (power.limit_w <= 0 || horizon.value <= 0) {
    return std::nullopt;
  }
  metrics::ServeEnergy e{.gpu_idle_w = power.idle_w};
  double gpus = 0;
  for (const InstanceUse* use : {&prefill, &decode}) {
    const config::Scenario& s = *use->scenario;
    const double n = use->instances;
    gpus += n * s.gpus();
    e.gpu_steps_j += use->step_joules;
    e.gpu_idle_j += n * s.gpus() * (1 - use->busy) * horizon.value * power.idle_w;
    // Each instance's own network and hosts over the whole horizon, counted as a job's step
    // counts them (no GPU work here: the GPUs are above).
    const metrics::StepEnergy facility =
        job_step_energy(s, {}, {}, horizon, network_use(s, config::build_topology(s)), 0);
    e.network_j += n * facility.network_j;
    e.host_j += n * facility.host_j;
  }
  e.per_output_token_j = output_tokens > 0 ? e.total_j() / output_tokens : 0;
  e.mean_gpu_power_w = (e.gpu_steps_j + e.gpu_idle_j) / (gpus * horizon.value);
  return e;
}

}  // namespace codesim::study
