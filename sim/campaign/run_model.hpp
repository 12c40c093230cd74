// A training run as work to do (the steps to train at the healthy step time), interrupted by
// failures: a cause that stops the job loses the work since the last checkpoint and pays the
// restart (detection, rescheduling, or the repair when no spare node is left, and the checkpoint's
// load); a network cause the fabric routes around (a multi-plane fat-tree's failed plane) runs the
// job at the degraded step until repaired. Checkpoints every `checkpoint_interval` of training,
// each pausing the job `checkpoint_write`. Failures arrive as a Poisson process at the causes'
// summed rate; none strikes during a restart.
//
// Monte Carlo: `trials` runs drawn from one seeded generator (the same seed, the same runs on any
// machine). Expectation, without degradation: per segment of T wall seconds between checkpoints
// (training and its write), (e^{lambda T} - 1) (1/lambda + R) with lambda the stopping rate and R
// the mean restart (the classic result for restarts from a segment's start); degradation adds
// lambda_d x repair x (degraded / healthy - 1) of the work, to first order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/campaign/campaign_spec.hpp"
#include "sim/campaign/failure_table.hpp"
#include "sim/core/units.hpp"

namespace codesim::campaign {

struct RunSpec {
  double steps = 1;             // to train
  core::Seconds step;           // a healthy step
  core::Seconds degraded_step;  // with a network fault routed around; 0: network faults stop too
  int gpus = 1;
  std::vector<FailureCause> causes;
  // Training between checkpoints; 0: Daly's optimum for the write and the stopping rate (the
  // whole run when nothing stops it).
  core::Seconds checkpoint_interval;
  core::Seconds checkpoint_write;  // the job's pause per checkpoint
  core::Seconds checkpoint_load;
  Restart restart;
  MonteCarlo monte_carlo;
  // The Monte Carlo's bound: checkpoint segments and failures over every trial (at least those
  // of the healthy work); a run past it is refused before it starts. 1e9: about a minute on one
  // core of this machine.
  double max_events = 1e9;
};

struct Quantiles {
  double p10 = 0;
  double p50 = 0;
  double p90 = 0;
  double mean = 0;
  double expected = 0;  // the analytic expectation
};

// A stretch of one run that is not healthy training: a restart (from the failure to training
// again, the lost work not counted) or a degraded period.
struct RunSpan {
  enum Kind { restart, degraded } kind = restart;
  double start_s = 0;
  double end_s = 0;
  std::string cause;
};

struct RunStats {
  Quantiles wall_s;         // wall-clock time of the run
  Quantiles interruptions;  // failures that stopped the job
  Quantiles degradations;   // network faults run through degraded
  double ettr_mean = 0;     // productive (healthy-speed work) / wall time, over the trials
  double ettr_expected = 0;
  double checkpoints = 0;  // written in a run
  // Expected interruptions by cause (rate x expected wall time), in the order of the causes.
  std::vector<double> expected_by_cause;
  double stop_rate_per_s = 0;         // the summed rate of the causes that stop the job
  double degrade_rate_per_s = 0;      // of those the fabric routes around
  core::Seconds mean_restart;         // over the stopping causes, weighted by rate
  core::Seconds checkpoint_interval;  // the one used (Daly's when the spec gave 0)
  // The first Monte-Carlo run as a timeline: its restarts and degraded periods, and its length.
  std::vector<RunSpan> first_run;
  double first_run_wall_s = 0;
};

// Throws core::KeyedError (naming the keys that set it) when the job cannot progress: the mean
// time between interruptions not longer than a restart plus a checkpoint's write.
RunStats simulate_run(const RunSpec& s);

// Daly's (2006) optimum interval of training between checkpoints for a write cost `c` and a mean
// time between failures `mtbf`: sqrt(2 c M) [1 + sqrt(c / 2M) / 3 + (c / 2M) / 9] - c for c < 2M,
// else M; Young's first order is sqrt(2 c M).
core::Seconds daly_interval(core::Seconds c, core::Seconds mtbf);

// The expected wall time alone (what simulate_run's `expected` gives), for sweeps of the interval.
double expected_wall_s(const RunSpec& s);

}  // namespace codesim::campaign
