// What varies between the GPUs and NICs of a training step, and how many steps are drawn. The
// defaults are the scenario's (parameters.hpp declares each key with its doc; config's tests check
// the two agree); every default with a source is in docs/model/variability.md, the others are
// labelled assumed there.
#pragma once

#include "models/calibration/variability.hpp"
#include "sim/core/units.hpp"

namespace codesim::variability {

// A part that runs slow for a while (FALCON, arXiv 2410.12588: fail-slow episodes last from tens
// of seconds to about 10 hours): at a given step a part is in an episode with probability
// rate x duration, and then takes `slowdown` times as long.
struct FailSlow {
  double per_1000_part_days = 0;  // episodes starting per part
  core::Seconds duration;         // mean episode
  double slowdown = 1;            // time multiplier while slow
  double probability() const;     // of a part being slow at a given step, at most 1
};

struct VariabilitySpec {
  int steps = 20;  // steps drawn, each with its own draws
  int seed = 1;
  // A GPU's pace: constant over blocks of gpu_pace_interval (0: the whole step), each block a
  // lognormal multiple of the modelled time of mean 1 and coefficient of variation gpu_cv,
  // independent of the others; a task takes its time x the mean pace over its span. Per NIC and
  // step, its transfers x a lognormal of cv nic_cv.
  double gpu_cv = calibration::variability::gpu_cv;
  // gpu_cv is a GPU's spread computing flat out; with cv_by_duty each GPU's is gpu_cv x
  // duty_cv_share(its busy fraction of the step) (speed_draw.hpp): one that waits stays under
  // its power cap.
  bool cv_by_duty = true;
  core::Seconds gpu_pace_interval{calibration::variability::gpu_pace_interval_ms / 1e3};
  double nic_cv = 0.01;
  FailSlow gpu_slow{.per_1000_part_days = 0.5, .duration = core::Seconds(3600), .slowdown = 1.5};
  FailSlow link_slow{.per_1000_part_days = 0.5, .duration = core::Seconds(3600), .slowdown = 2};
  // Units (the GPUs that TP, CP and EP bind into one pipeline column) replayed explicitly: n, the
  // n with the largest draws (order statistics of their slowdowns); 0, every one while their
  // task end times (tasks x GPUs replayed per rank x 8 B) fit replay_memory, else as many as fit.
  int simulated_units = 0;
  core::Bytes replay_memory = core::Bytes(2e9);
};

}  // namespace codesim::variability
