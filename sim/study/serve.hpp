// A request-level serving run (`codesim serve`): prefill and decode instances of the scenario's
// model, each with its own GPUs and parallelism (serve: section), requests arriving as a Poisson
// process or from a trace file, the serving loop of sim/serve with every step priced by the
// inference model at that step's load.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sim/config/loader.hpp"
#include "sim/metrics/serve_result.hpp"
#include "sim/study/budget.hpp"

namespace codesim::study {

// The scenario `source` gives, its instances each decoded from it with the instance's nodes,
// parallelism and load over it. Throws core::InputError (located at the scenario key, or at the
// trace file's line) for a scenario, instance or trace the model cannot run, or whose fewest
// steps (serve::least_steps) are past `budget.max_serve_steps`. `progress` hears a line every ten
// million steps; may be empty.
metrics::ServeResult simulate_serving(const config::ScenarioSource& source,
                                      const Budget& budget = {},
                                      const std::function<void(const std::string&)>& progress = {});

}  // namespace codesim::study
