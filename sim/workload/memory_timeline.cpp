// A rank's activations chunk by chunk.
#include "sim/workload/memory_timeline.hpp"

#include <algorithm>

namespace codesim::workload {

ActivationTimeline activation_timeline(const PipelineSchedule& s, int rank,
                                       const std::vector<double>& stage_bytes) {
  ActivationTimeline out;
  double held = 0;
  auto bytes = [&](const StageWork& w) {
    return stage_bytes.at(static_cast<std::size_t>(w.stage));
  };
  const auto& chunks = s.per_rank.at(static_cast<std::size_t>(rank));
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    const Chunk& c = chunks[i];
    if (c.kind == ChunkKind::forward || c.kind == ChunkKind::forward_backward) {
      held += bytes(c.work);
    }
    out.held.push_back(held);
    if (held > out.peak) {
      out.peak = held;
      out.peak_chunk = static_cast<int>(i);
    }
    if (c.kind == ChunkKind::backward || c.kind == ChunkKind::weight) {
      held -= bytes(c.work);
    } else if (c.kind == ChunkKind::forward_backward) {
      held -= bytes(c.backward);
    }
    out.after.push_back(held);
  }
  return out;
}

}  // namespace codesim::workload
