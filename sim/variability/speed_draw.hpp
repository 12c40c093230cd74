// One step's draws: per GPU a multiplier of its compute time, per NIC (one per GPU) a multiplier
// of its transfers' time; lognormal spread of mean 1 times a fail-slow episode's slowdown.
// Drawn from std::mt19937_64 (its sequence is fixed by the standard) by inversion and
// Box-Muller, so a seed gives the same draws everywhere.
//
// Fail-slow parts are rare (a few per 10,000 parts at a time), and one of them slows the whole
// step: drawn step by step their count would dominate the spread of a few dozen steps. So steps
// are drawn by stratum of that count (slow_strata): a step of stratum k has exactly k slow parts
// placed at random, and its weight is the stratum's probability over its steps.
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

// A stratum: how many parts (GPUs and links together) are slow at once, its probability, its
// share of the steps, and per a = 0 .. slow the probability that a of them are GPUs.
struct SlowStratum {
  int slow = 0;
  double probability = 0;
  int steps = 0;
  std::vector<double> gpu_split;
};

// The strata of `parts` GPUs (and as many NICs), slow counts 0 .. k, k the least that leaves
// less than 1e-3 of the probability above it (lumped into stratum k); each stratum's steps:
// spec.steps x its probability, at least 2 (all of them when there is one stratum). When more
// than spec.steps / 2 strata would be needed: one stratum (slow -1) whose steps draw each part
// slow at its probability.
std::vector<SlowStratum> slow_strata(const VariabilitySpec& spec, int parts);

class SpeedDraws {
 public:
  SpeedDraws(const VariabilitySpec& spec, int gpus);
  // A step's spread, with each part slow at its probability.
  StepDraw next();
  // A step of `stratum`: its slow parts split between GPUs and links by the stratum's odds, each
  // placed at random.
  StepDraw next(const SlowStratum& stratum);

 private:
  double uniform();  // on (0, 1)
  double normal();
  std::vector<double> spread(double cv);
  void slow_random(std::vector<double>& m, const FailSlow& slow, int& slow_count);
  void slow_exactly(std::vector<double>& m, const FailSlow& slow, int count);

  VariabilitySpec spec_;
  int gpus_;
  std::mt19937_64 engine_;
};

}  // namespace codesim::variability
