// The one list scheduler: queue order, dependencies, the caller's placement, cycles.
#include "sim/core/list_schedule.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace codesim::core {
namespace {

TEST(ListSchedule, ATaskStartsWhenItsQueuePredecessorAndDependenciesHaveEnded) {
  // Queue 0 runs 0 (3 s) then 1 (2 s); queue 1 runs 2 (1 s), then 3 (4 s), which waits for 1.
  // 0: [0, 3], 1: [3, 5], 2: [0, 1], 3: [max(1, 5), 9] = [5, 9].
  const TaskGraph g{.queues = {{0, 1}, {2, 3}}, .deps = {{}, {}, {}, {1}}};
  const double seconds[] = {3, 2, 1, 4};
  const auto spans = list_schedule(g, [&](int t, double ready) {
    return TaskSpan{ready, ready + seconds[t]};
  });
  ASSERT_EQ(spans.size(), 4u);
  EXPECT_EQ(spans[0].start, 0);
  EXPECT_EQ(spans[1].start, 3);
  EXPECT_EQ(spans[2].end, 1);
  EXPECT_EQ(spans[3].start, 5);
  EXPECT_EQ(spans[3].end, 9);
}

TEST(ListSchedule, ThePlacementMayStartATaskLaterThanItIsReady) {
  // A measured slack of 2 s before task 1: it is ready at 1 and starts at 3; task 2, after it on
  // its queue, is ready at 3 + 1 = 4.
  const TaskGraph g{.queues = {{0, 1, 2}}, .deps = {{}, {}, {}}};
  const auto spans = list_schedule(g, [](int t, double ready) {
    const double start = ready + (t == 1 ? 2 : 0);
    return TaskSpan{start, start + 1};
  });
  EXPECT_EQ(spans[1].start, 3);
  EXPECT_EQ(spans[2].start, 4);
}

TEST(ListSchedule, ACycleThroughQueuesAndDependenciesIsRefused) {
  // 0 before 1 on queue 0, 2 before 3 on queue 1; 0 waits for 3 and 2 for 1: no task can start.
  const TaskGraph g{.queues = {{0, 1}, {2, 3}}, .deps = {{3}, {}, {1}, {}}};
  EXPECT_EQ(run_order(g).size(), 0u);
  try {
    list_schedule(g, [](int, double ready) { return TaskSpan{ready, ready}; });
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "the queue orders and dependencies form a cycle");
  }
}

}  // namespace
}  // namespace codesim::core
