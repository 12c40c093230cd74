#include "sim/core/list_schedule.hpp"

#include <algorithm>
#include <stdexcept>

namespace codesim::core {
std::vector<int> queue_predecessors(const TaskGraph& g) {
  std::vector<int> previous(g.deps.size(), -1);
  for (const auto& queue : g.queues) {
    for (std::size_t i = 1; i < queue.size(); ++i) {
      previous[static_cast<std::size_t>(queue[i])] = queue[i - 1];
    }
  }
  return previous;
}

std::vector<int> topological_order(const std::vector<std::vector<std::size_t>>& next) {
  std::vector<int> indegree(next.size(), 0);
  for (const auto& s : next) {
    for (const std::size_t n : s) {
      ++indegree[n];
    }
  }
  std::vector<int> ready;
  for (std::size_t n = 0; n < next.size(); ++n) {
    if (indegree[n] == 0) {
      ready.push_back(static_cast<int>(n));
    }
  }
  for (std::size_t k = 0; k < ready.size(); ++k) {
    for (const std::size_t s : next[static_cast<std::size_t>(ready[k])]) {
      if (--indegree[s] == 0) {
        ready.push_back(static_cast<int>(s));
      }
    }
  }
  return ready;
}

std::vector<int> run_order(const TaskGraph& g) {
  std::vector<std::vector<std::size_t>> next(g.deps.size());
  for (const auto& queue : g.queues) {
    for (std::size_t i = 1; i < queue.size(); ++i) {
      next[static_cast<std::size_t>(queue[i - 1])].push_back(static_cast<std::size_t>(queue[i]));
    }
  }
  for (std::size_t t = 0; t < g.deps.size(); ++t) {
    for (const int d : g.deps[t]) {
      next[static_cast<std::size_t>(d)].push_back(t);
    }
  }
  return topological_order(next);
}

std::vector<TaskSpan> list_schedule(const TaskGraph& g,
                                    const std::function<TaskSpan(int task, double ready)>& place) {
  const std::vector<int> order = run_order(g);
  if (order.size() != g.deps.size()) {
    throw std::invalid_argument("the queue orders and dependencies form a cycle");
  }
  const std::vector<int> previous = queue_predecessors(g);
  std::vector<TaskSpan> out(g.deps.size());
  for (const int t : order) {
    const auto i = static_cast<std::size_t>(t);
    double ready = previous[i] >= 0 ? out[static_cast<std::size_t>(previous[i])].end : 0.0;
    for (const int d : g.deps[i]) {
      ready = std::max(ready, out[static_cast<std::size_t>(d)].end);
    }
    out[i] = place(t, ready);
  }
  return out;
}

}  // namespace codesim::core
