// A serving run's energy (codesim serve): each kind of instance's GPUs through the steps the
// loop ran (their energy as the inference model prices each step) and at rest between them, and
// the NICs, switches and hosts each instance's own network and nodes hold, over the horizon.
#pragma once

#include "sim/config/scenario.hpp"
#include "sim/core/units.hpp"
#include "sim/metrics/serve_result.hpp"

namespace codesim::study {

// One kind of instance as the run used it.
struct InstanceUse {
  const config::Scenario* scenario = nullptr;  // one instance's
  int instances = 0;
  double busy = 0;         // share of the instances' time in steps
  double step_joules = 0;  // every step the loop ran, every GPU of its instance
};

// Empty when the GPUs have no power model (hardware.power_limit 0).
std::optional<metrics::ServeEnergy> serve_energy(const InstanceUse& prefill,
                                                 const InstanceUse& decode, core::Seconds horizon,
                                                 double output_tokens);

}  // namespace codesim::study
