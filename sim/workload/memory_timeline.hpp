// A pipeline rank's activations over its step, from its schedule: each forward chunk allocates
// its stage's activations for its micro-batch, each chunk that ends a micro-batch's backward on a
// stage (a whole backward, a weight chunk after an input backward) frees them; an overlapped pair
// allocates its forward's before it frees its backward's.
#pragma once

#include <vector>

#include "sim/workload/schedule.hpp"

namespace codesim::workload {

struct ActivationTimeline {
  std::vector<double> held;   // bytes held after each chunk's allocation, in the rank's order
  std::vector<double> after;  // bytes held after each chunk's frees
  double peak = 0;
  int peak_chunk = 0;  // the chunk at whose allocation the peak is reached
};

// `stage_bytes`: one micro-batch's activations on each stage (indexed by stage).
ActivationTimeline activation_timeline(const PipelineSchedule& s, int rank,
                                       const std::vector<double>& stage_bytes);

}  // namespace codesim::workload
