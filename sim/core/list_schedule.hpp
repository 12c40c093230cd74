// One list scheduler for the simulator's dependency graphs of tasks on queues (streams, pipeline
// ranks, a trace's streams): each queue runs its tasks one at a time in its order, and a task
// starts no earlier than its queue predecessor's end and the end of every task it depends on.
// Where it starts and how long it runs are the caller's (`place`): at once or after a measured
// slack, for a fixed time or at a pace that depends on when it starts. The fast tier, a trace's
// replay and the pipeline schedule's timing use it; the variability replay runs the same order
// (run_order) with every replica's GPUs at once.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

namespace codesim::core {

struct TaskGraph {
  std::vector<std::vector<int>> queues;  // each queue's tasks in the order it runs them
  std::vector<std::vector<int>> deps;    // per task: what it waits for besides its queue order
};

struct TaskSpan {
  double start = 0;
  double end = 0;
};

// Kahn's algorithm over a graph given by its successor lists: its nodes in an order that puts
// each after its predecessors; fewer than all of them when the graph has a cycle.
std::vector<int> topological_order(const std::vector<std::vector<std::size_t>>& next);

// Each task's predecessor on its queue, -1 for a queue's first (or a task on none).
std::vector<int> queue_predecessors(const TaskGraph& g);

// The graph's tasks in an order that runs each after its queue predecessor and its
// dependencies; fewer than all of them when those form a cycle. Tasks and dependencies must be
// in range (0 to deps.size() - 1), each task on at most one queue.
std::vector<int> run_order(const TaskGraph& g);

// Every task's span: `place(task, ready)` is called once per task, in run order, with the time
// its queue predecessor and dependencies have all ended (0 for none) and returns its span.
// Throws std::invalid_argument when the queue orders and dependencies form a cycle.
std::vector<TaskSpan> list_schedule(const TaskGraph& g,
                                    const std::function<TaskSpan(int task, double ready)>& place);

}  // namespace codesim::core
