// The ranks' programs joined: renumbered tasks, pipeline waits resolved.
#include "sim/workload/pipeline_link.hpp"

#include <stdexcept>

namespace codesim::workload {

LinkedTasks link_pipeline(const std::vector<RankProgram>& ranks) {
  LinkedTasks out;
  std::map<StageKey, int> forward_sent;
  std::map<StageKey, int> backward_sent;
  std::vector<int> offset;
  for (const RankProgram& r : ranks) {
    const int off = static_cast<int>(out.tasks.size());
    offset.push_back(off);
    for (StepTask t : r.tasks) {
      t.id += off;
      for (int& d : t.deps) {
        d += off;
      }
      out.tasks.push_back(std::move(t));
    }
    for (const auto& [key, task] : r.forward_sent) {
      forward_sent[key] = task + off;
    }
    for (const auto& [key, task] : r.backward_sent) {
      backward_sent[key] = task + off;
    }
    std::array<int, kStepStreams> last = r.last;
    for (int& l : last) {
      l = l >= 0 ? l + off : -1;
    }
    out.last.push_back(last);
  }
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    for (const PipelineWait& w : ranks[r].waits) {
      const auto& sent = w.forward ? forward_sent : backward_sent;
      const auto it = sent.find(w.key);
      if (it == sent.end()) {
        throw std::logic_error("a chunk waits for a pipeline send that never happens");
      }
      out.tasks[static_cast<std::size_t>(w.task + offset[r])].deps.push_back(it->second);
    }
  }
  return out;
}

}  // namespace codesim::workload
