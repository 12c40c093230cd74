// codesim as a library: load a scenario, change one key in code, simulate the step, print it.
//
//   what_if SCENARIO.yaml [NODE_LIMIT]
#include <cstdlib>
#include <iostream>
#include <string>

#include "sim/config/loader.hpp"
#include "sim/core/error.hpp"
#include "sim/study/training.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: what_if SCENARIO.yaml [NODE_LIMIT]\n";
    return 2;
  }
  try {
    codesim::config::Scenario scenario = codesim::config::load_scenario(argv[1]);
    // The what-if: every token's experts on at most this many nodes.
    scenario.routing.node_limit = argc > 2 ? std::atoi(argv[2]) : 2;
    const codesim::metrics::RunResult r = codesim::study::simulate_training(scenario);
    std::cout << r.scenario << " with node_limit " << scenario.routing.node_limit << ": step "
              << r.step_time.value << " s, " << r.tokens_per_day / 1e9 << " B tokens/day\n";
    for (const auto& note : r.notes) {
      std::cout << codesim::core::note_kind_name(note.kind) << ": " << note.text << "\n";
    }
  } catch (const codesim::core::InputError& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
  return 0;
}
