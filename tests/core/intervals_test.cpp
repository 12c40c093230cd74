// The one interval algebra: union, uncovered parts, length and overlap.
#include "sim/core/intervals.hpp"

#include <gtest/gtest.h>

namespace codesim::core {
namespace {

TEST(Intervals, TheUnionMergesTouchingSpansAndDropsEmptyOnes) {
  // [3, 4) and [0, 2) and [2, 2.5) and the empty [5, 5): [0, 2.5), [3, 4); length 3.5.
  const auto u = merged({{3, 4}, {0, 2}, {2, 2.5}, {5, 5}});
  ASSERT_EQ(u.size(), 2U);
  EXPECT_DOUBLE_EQ(u[0].a, 0);
  EXPECT_DOUBLE_EQ(u[0].b, 2.5);
  EXPECT_DOUBLE_EQ(u[1].a, 3);
  EXPECT_DOUBLE_EQ(length(u), 3.5);
}

TEST(Intervals, WhatTheCoverLeavesOfASpan) {
  // [0, 10) under [1, 2) and [4, 12): [0, 1) and [2, 4) are left, 3 in all.
  const auto left = uncovered_parts({0, 10}, {{1, 2}, {4, 12}});
  ASSERT_EQ(left.size(), 2U);
  EXPECT_DOUBLE_EQ(left[1].a, 2);
  EXPECT_DOUBLE_EQ(left[1].b, 4);
  EXPECT_DOUBLE_EQ(uncovered({0, 10}, {{1, 2}, {4, 12}}), 3);
}

TEST(Intervals, TheOverlapOfTwoUnions) {
  // [0, 4) + [6, 8) against [3, 7): 1 + 1 = 2; an empty union overlaps nothing.
  EXPECT_DOUBLE_EQ(overlap({{0, 4}, {6, 8}}, {{3, 7}}), 2);
  EXPECT_DOUBLE_EQ(overlap({}, {{3, 7}}), 0);
}

}  // namespace
}  // namespace codesim::core
