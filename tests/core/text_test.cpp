// Edit distance and did-you-mean.
#include "sim/core/text.hpp"

#include <gtest/gtest.h>

#include "sim/core/error.hpp"

namespace codesim::core {
namespace {

TEST(EditDistance, CountsInsertDeleteSubstitute) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);  // k->s, e->i, +g
  EXPECT_EQ(edit_distance("bandwith", "bandwidth"), 1u);
}

TEST(ClosestMatch, SuggestsOnlyLikelyTypos) {
  const std::vector<std::string> keys = {"nvlink_bandwidth", "nic_bandwidth", "nodes"};
  EXPECT_EQ(closest_match("nvlink_bandwith", keys), "nvlink_bandwidth");
  EXPECT_EQ(closest_match("node", keys), "nodes");
  EXPECT_EQ(closest_match("completely_else", keys), "");
}

TEST(Split, KeepsEveryPieceEmptyOnesIncluded) {
  EXPECT_EQ(split("1MB,16MB", ','), (std::vector<std::string>{"1MB", "16MB"}));
  EXPECT_EQ(split("a,,b,", ','), (std::vector<std::string>{"a", "", "b", ""}));
  EXPECT_EQ(split("", ','), (std::vector<std::string>{""}));
}

TEST(Diagnostic, PrintsFileLineColumnKeyAndHint) {
  const Diagnostic d{{"a.yaml", 3, 5}, "hardware.nodes", "must be at least 1, got 0", "try 256"};
  EXPECT_EQ(d.to_string(),
            "a.yaml:3:5: error: hardware.nodes: must be at least 1, got 0\n  hint: try 256");
  const Diagnostic no_line{{"a.yaml", 0, 0}, "", "cannot read the scenario file", ""};
  EXPECT_EQ(no_line.to_string(), "a.yaml: error: cannot read the scenario file");
}

TEST(Text, QuotedExcerptShowsAShortLineWhole) {
  EXPECT_EQ(quoted_excerpt("8xH100"), "'8xH100'");
  EXPECT_EQ(quoted_excerpt(std::string(60, 'a')), "'" + std::string(60, 'a') + "'");
  // Past 60 characters, or past the first line: the start, then the whole length.
  EXPECT_EQ(quoted_excerpt(std::string(61, 'a')),
            "'" + std::string(60, 'a') + "' ... (61 characters)");
  EXPECT_EQ(quoted_excerpt("root:x:0:0\ndaemon:x:1:1"), "'root:x:0:0' ... (23 characters)");
}

TEST(Text, DurationTextPicksItsUnit) {
  EXPECT_EQ(duration_text(0.3750994), "375 ms");
  EXPECT_EQ(duration_text(20.24), "20.2 s");
  EXPECT_EQ(duration_text(1209.39), "20.2 min");
  EXPECT_EQ(duration_text(12096), "3.36 h");
}

TEST(Text, FixedPrintsEveryDigit) {
  EXPECT_EQ(fixed(2.5, 1), "2.5");
  // 1e63 has 64 digits before the point, 1e300 301: none cut (a 64-byte buffer cut them).
  EXPECT_EQ(fixed(1e63, 0).size(), 64u);
  EXPECT_EQ(fixed(1e300, 2).size(), 301u + 3u);
  EXPECT_EQ(fixed(1e300, 2).substr(0, 4), "1000");
}

TEST(InputError, JoinsAllDiagnostics) {
  const InputError e(
      {Diagnostic{{"f", 1, 1}, "a", "x", ""}, Diagnostic{{"f", 2, 1}, "b", "y", ""}});
  EXPECT_EQ(std::string(e.what()), "f:1:1: error: a: x\nf:2:1: error: b: y");
  EXPECT_EQ(e.diagnostics().size(), 2u);
}

}  // namespace
}  // namespace codesim::core
