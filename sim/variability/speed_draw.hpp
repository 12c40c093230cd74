// One step's draws: per GPU a multiplier of its compute time, per NIC (one per GPU) a multiplier
// of its transfers' time; lognormal spread of mean 1 times a fail-slow episode's slowdown.
// Drawn from std::mt19937_64 (its sequence is fixed by the standard) by inversion and
// Box-Muller, so a seed gives the same draws everywhere.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "sim/variability/variability_spec.hpp"

namespace codesim::variability {

struct StepDraw {
  std::vector<double> compute;  // per GPU (pipeline rank r's GPU j: r x G + j)
  std::vector<double> network;  // per GPU's NIC
  int slow_gpus = 0;            // in a fail-slow episode this step
  int slow_links = 0;
};

class SpeedDraws {
 public:
  SpeedDraws(const VariabilitySpec& spec, int gpus);
  StepDraw next();

 private:
  double uniform();  // on (0, 1)
  double normal();
  std::vector<double> multipliers(double cv, const FailSlow& slow, int& slow_count);

  VariabilitySpec spec_;
  int gpus_;
  std::mt19937_64 engine_;
};

}  // namespace codesim::variability
