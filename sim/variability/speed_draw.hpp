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
#include <optional>
#include <random>
#include <vector>

#include "sim/variability/variability_spec.hpp"

namespace codesim::variability {

struct StepDraw {
  std::vector<double> compute;  // per GPU (pipeline rank r's GPU j: r x G + j): fail-slow factor
  std::vector<double> network;  // per GPU's NIC
  // Per GPU its pace per block of block_s seconds from the step's start (blocks per GPU, the
  // last standing for any time after it), and its mean over the step.
  std::vector<float> pace;
  int blocks = 1;
  double block_s = 0;
  std::vector<double> mean_pace;
  int slow_gpus = 0;  // in a fail-slow episode this step
  int slow_links = 0;

  // GPU `gpu`'s mean pace over [t, t + duration).
  double pace_over(std::size_t gpu, double t, double duration) const;
};

// A stratum: how many GPUs and how many links are slow at once, its probability, its share of the
// steps.
struct SlowStratum {
  int gpus = 0;  // -1: every part drawn slow at its probability instead
  int links = 0;
  double probability = 0;
  int steps = 0;
};

// The strata of `parts` GPUs (and as many NICs): (slow GPUs, slow links) pairs, most probable
// first (binomial counts, independent), until less than 1e-3 of the probability is left (lumped
// into the last); each stratum's steps: spec.steps x its probability, at least 1 (all of them
// when there is one stratum). When more than spec.steps strata would be needed: one stratum
// (gpus -1) whose steps draw each part slow at its probability.
std::vector<SlowStratum> slow_strata(const VariabilitySpec& spec, int parts);

// A GPU's pace spread at `duty` (its busy fraction, 0-1) as a share of its spread computing flat
// out: piecewise linear through the H200's runs with idle gaps (models/calibration/h200/
// variability/h200_variability_duty.json: cv 0.0454 flat out, 0.0243 at 80% busy, 0.0052 at 50%)
// and 0 at rest.
double duty_cv_share(double duty);

// Blocks of gpu_pace_interval in `horizon` seconds (1 when the interval is 0: one pace).
double pace_blocks(const VariabilitySpec& spec, double horizon);

class SpeedDraws {
 public:
  // Paces drawn for `horizon` seconds from the step's start (later times take the last block's
  // pace). Throws core::KeyedError (variability.gpu_pace_interval) when the pace table would not
  // fit spec.replay_memory. `duty`: each GPU's busy fraction, which scales its pace spread when spec.cv_by_duty
  // (empty: every GPU flat out).
  SpeedDraws(const VariabilitySpec& spec, int gpus, double horizon,
             const std::vector<double>& duty = {});
  // A step's spread, with each part slow at its probability.
  StepDraw next();
  // A step of `stratum`: its slow GPUs and links, each placed at random.
  StepDraw next(const SlowStratum& stratum);

 private:
  double uniform();  // on (0, 1)
  double normal();
  double lognormal(double sigma);  // of mean 1, log-space deviation sigma
  std::vector<double> spread(double cv);
  void draw_pace(StepDraw& d);
  void slow_random(std::vector<double>& m, const FailSlow& slow, int& slow_count);
  void slow_exactly(std::vector<double>& m, const FailSlow& slow, int count);

  VariabilitySpec spec_;
  int gpus_;
  double horizon_;
  std::vector<double> pace_sigma_;  // per GPU: its pace's log-space deviation
  std::mt19937_64 engine_;
  std::optional<double> spare_;  // Box-Muller's second normal
};

}  // namespace codesim::variability
