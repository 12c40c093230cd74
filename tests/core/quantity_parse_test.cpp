// Parsing quantities as users write them, and their canonical spelling.
#include "sim/core/quantity_parse.hpp"

#include <gtest/gtest.h>

#include "sim/core/error.hpp"

namespace codesim::core {
namespace {

using D = Dimension;

struct Case {
  const char* text;
  Dimension dimension;
  double expected;  // base unit
};

class ParsesTo : public ::testing::TestWithParam<Case> {};

TEST_P(ParsesTo, BaseUnitValue) {
  const Case c = GetParam();
  EXPECT_DOUBLE_EQ(parse_quantity(c.text, c.dimension), c.expected) << c.text;
}

INSTANTIATE_TEST_SUITE_P(
    Spellings, ParsesTo,
    ::testing::Values(
        Case{"400Gbps", D::bytes_per_second, 400e9 / 8},  // bits: divide by 8
        Case{"400 Gb/s", D::bytes_per_second, 50e9}, Case{"50GBps", D::bytes_per_second, 50e9},
        Case{"160 GB/s", D::bytes_per_second, 160e9},
        Case{"3.35TB/s", D::bytes_per_second, 3.35e12},
        Case{"800Gbit/s", D::bytes_per_second, 100e9},
        Case{"1GiB/s", D::bytes_per_second, 1073741824.0}, Case{"1.5us", D::seconds, 1.5e-6},
        Case{"1.5\xC2\xB5s", D::seconds, 1.5e-6}, Case{"3.33 us", D::seconds, 3.33e-6},
        Case{"2ms", D::seconds, 2e-3}, Case{"500ns", D::seconds, 500e-9},
        Case{"1min", D::seconds, 60}, Case{"989TFLOPS", D::flops_per_second, 989e12},
        Case{"1979 TFLOP/s", D::flops_per_second, 1979e12}, Case{"250GFLOP", D::flops, 250e9},
        Case{"80GB", D::bytes, 80e9}, Case{"141GiB", D::bytes, 141.0 * 1073741824.0},
        Case{"7168B", D::bytes, 7168}, Case{"1e3KB", D::bytes, 1e6},
        Case{"  64 GB/s  ", D::bytes_per_second, 64e9}));

// Every error, word for word.
struct Bad {
  const char* text;
  Dimension dimension;
  const char* message;
  const char* hint;
};

class Rejects : public ::testing::TestWithParam<Bad> {};

TEST_P(Rejects, WithMessageAndHint) {
  const Bad b = GetParam();
  try {
    parse_quantity(b.text, b.dimension);
    FAIL() << "accepted " << b.text;
  } catch (const UnitError& e) {
    EXPECT_EQ(std::string(e.what()), b.message);
    EXPECT_EQ(e.hint(), b.hint);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Errors, Rejects,
    ::testing::Values(
        Bad{"160", D::bytes_per_second, "'160' has no unit; a bandwidth needs one",
            "write e.g. 50GBps, 400Gbps, 160 GB/s"},
        Bad{"80Gb", D::bytes, "'80Gb' is in bits; sizes are in bytes",
            "write the size in bytes with 'B' (8 bits = 1B), e.g. 80GB, 141GiB, 7168B"},
        Bad{"400GB", D::bytes_per_second, "'400GB' is a size, not a bandwidth",
            "append 'ps' or '/s': 400GBps"},
        Bad{"400Gb", D::bytes_per_second, "'400Gb' is a size in bits, not a rate",
            "append 'ps' or '/s': 400Gbps"},
        Bad{"989TFLOP", D::flops_per_second, "'989TFLOP' is a FLOP count, not a compute rate",
            "append 'S' or '/s': 989TFLOPS"},
        Bad{"1.5us", D::bytes, "'1.5us' is a duration, not a size",
            "write e.g. 80GB, 141GiB, 7168B"},
        Bad{"5 parsecs", D::seconds, "unknown unit 'parsecs' in '5 parsecs'",
            "a duration is written like 1.5us, 3ms, 2s"},
        Bad{"fast", D::seconds, "'fast' is not a duration",
            "write a number and a unit, e.g. 1.5us, 3ms, 2s"},
        Bad{"", D::bytes, "'' is not a size",
            "write a number and a unit, e.g. 80GB, 141GiB, 7168B"},
        Bad{"1.2.3GB", D::bytes, "'1.2.3GB' is not a finite number",
            "write e.g. 80GB, 141GiB, 7168B"}));

TEST(FormatQuantity, PicksTheLargestPrefix) {
  EXPECT_EQ(format_quantity(160e9, D::bytes_per_second), "160GBps");
  EXPECT_EQ(format_quantity(50e9, D::bytes_per_second), "50GBps");
  EXPECT_EQ(format_quantity(1.5e-6, D::seconds), "1.5us");
  EXPECT_EQ(format_quantity(500e-9, D::seconds), "500ns");
  EXPECT_EQ(format_quantity(120, D::seconds), "120s");
  EXPECT_EQ(format_quantity(989e12, D::flops_per_second), "989TFLOPS");
  EXPECT_EQ(format_quantity(1979e12, D::flops_per_second), "1979TFLOPS");
  EXPECT_EQ(format_quantity(80e9, D::bytes), "80GB");
  EXPECT_EQ(format_quantity(7168, D::bytes), "7.168KB");
  EXPECT_EQ(format_quantity(0, D::bytes), "0B");
  EXPECT_EQ(format_quantity(0, D::seconds), "0s");
}

TEST(FormatQuantity, RoundTripsExactly) {
  // parse(format(v)) == v bit for bit, including values with no short decimal form.
  const double values[] = {160e9, 1.5e-6,    3.33e-6,       141.0 * 1073741824.0,
                           0.1,   1.0 / 3.0, 123456789.125, 2.8e-6};
  for (const auto d : {D::bytes, D::seconds, D::bytes_per_second, D::flops, D::flops_per_second}) {
    for (double v : values) {
      EXPECT_EQ(parse_quantity(format_quantity(v, d), d), v) << format_quantity(v, d);
    }
  }
}

}  // namespace
}  // namespace codesim::core
