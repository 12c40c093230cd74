// A rank's chunks paired with its memory.
#include "sim/metrics/pipeline_lanes.hpp"

#include <algorithm>

namespace codesim::metrics {

std::vector<MemoryStep> memory_steps(const RankLanes& lanes) {
  const RankMemory& m = lanes.memory;
  const std::size_t n =
      std::min({lanes.compute.size(), m.activations_at_start.size(), m.activations_at_end.size()});
  std::vector<MemoryStep> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back({.start = lanes.compute[i].start,
                   .end = lanes.compute[i].end,
                   .bytes_at_start = m.state_bytes + m.activations_at_start[i],
                   .bytes_at_end = m.state_bytes + m.activations_at_end[i]});
  }
  return out;
}

}  // namespace codesim::metrics
