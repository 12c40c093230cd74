// Strong unit types: the arithmetic that turns sizes and rates into times.
#include "sim/core/units.hpp"

#include <gtest/gtest.h>

namespace codesim::core {
namespace {

using namespace literals;

TEST(Units, SizeOverBandwidthIsTime) {
  // 1 GB over 50 GB/s = 1e9 / 50e9 s = 20 ms.
  const Seconds t = 1_GB / 50_GBps;
  EXPECT_DOUBLE_EQ(t.value, 1e9 / 50e9);
}

TEST(Units, BitsPerSecondAreAnEighthOfBytesPerSecond) {
  // 400 Gb/s = 400e9 / 8 B/s = 50 GB/s.
  EXPECT_DOUBLE_EQ((400_Gbps).value, (50_GBps).value);
}

TEST(Units, FlopsOverRateIsTime) {
  const Flops work(989e12);
  EXPECT_DOUBLE_EQ((work / 989_TFLOPS).value, 1.0);
}

TEST(Units, RateTimesTimeIsAmount) {
  EXPECT_DOUBLE_EQ((50_GBps * Seconds(2.0)).value, 100e9);
  EXPECT_DOUBLE_EQ((FlopsPerSecond(2.0) * Seconds(3.0)).value, 6.0);
}

TEST(Units, SameKindArithmeticAndRatio) {
  Bytes b = 3_GB;
  b += 1_GB;
  EXPECT_DOUBLE_EQ(b.value, 4e9);
  EXPECT_DOUBLE_EQ(b / 2_GB, 2.0);
  EXPECT_LT(1_GB, 1_GiB);  // 1e9 < 2^30
  EXPECT_DOUBLE_EQ((2.0 * 1_GB).value, 2e9);
}

}  // namespace
}  // namespace codesim::core
