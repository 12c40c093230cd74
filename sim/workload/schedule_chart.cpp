// Rendering of a timed schedule as text rows.
#include "sim/workload/schedule_chart.hpp"

#include <cmath>

namespace codesim::workload {
namespace {

int shown_id(const PipelineSchedule& s, const StageWork& w) {
  return w.direction * (s.micro_batches / s.directions) + w.micro_batch;
}

}  // namespace

std::string chunk_label(const PipelineSchedule& s, const Chunk& c) {
  const std::string id = std::to_string(shown_id(s, c.work));
  switch (c.kind) {
    case ChunkKind::forward:
      return "F" + id;
    case ChunkKind::backward:
      return "B" + id;
    case ChunkKind::backward_input:
      return "b" + id;
    case ChunkKind::weight:
      return "W" + id;
    case ChunkKind::forward_backward:
      return "F" + id + "+B" + std::to_string(shown_id(s, c.backward));
  }
  return "?";
}

std::string schedule_chart(const PipelineSchedule& s, const ScheduleTiming& t,
                           double chars_per_second) {
  auto column = [&](core::Seconds time) {
    return static_cast<std::size_t>(std::lround(time.value * chars_per_second));
  };
  const std::size_t width = column(t.makespan);
  std::string out;
  for (std::size_t r = 0; r < t.per_rank.size(); ++r) {
    std::string row(width, '.');
    for (const auto& tc : t.per_rank[r]) {
      const std::size_t a = column(tc.start);
      const std::size_t b = column(tc.end);
      if (b <= a) {
        continue;
      }
      const std::string label = chunk_label(s, tc.chunk);
      for (std::size_t i = a; i < b; ++i) {
        const std::size_t k = i - a;
        row[i] = i + 1 == b ? '|' : (k < label.size() ? label[k] : ' ');
      }
    }
    std::string name = std::to_string(r);
    name.insert(0, std::to_string(s.ranks - 1).size() - name.size(), ' ');
    out += "rank " + name + " |" + row + "\n";
  }
  return out;
}

}  // namespace codesim::workload
