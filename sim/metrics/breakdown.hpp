// Where the first pipeline rank's step went, chunk kind by chunk kind (ISCA 2025 Table 4's items).
#pragma once

#include "sim/core/units.hpp"

namespace codesim::metrics {

// The first pipeline rank's step, spent in (docs/model/deepseek-v3.md §6): forward-only chunks,
// backward-only chunks (input gradients, or whole backwards where the schedule does not split
// them), weight-only chunks, overlapped forward-and-backward pairs, idle, and the optimizer step
// with the data-parallel synchronization around it. They add up to the step time.
struct Breakdown {
  core::Seconds forward;
  core::Seconds backward;
  core::Seconds weight;
  core::Seconds forward_backward;
  core::Seconds bubble;
  core::Seconds optimizer;
  core::Seconds total() const {
    return forward + backward + weight + forward_backward + bubble + optimizer;
  }
  // Adds b x w, part by part (a weighted mean over drawn steps).
  void add(const Breakdown& b, double w) {
    forward += b.forward * w;
    backward += b.backward * w;
    weight += b.weight * w;
    forward_backward += b.forward_backward * w;
    bubble += b.bubble * w;
    optimizer += b.optimizer * w;
  }
};

}  // namespace codesim::metrics
