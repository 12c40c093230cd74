// A run's routing as an inference input: counts per MoE layer and expert, normalized to shares,
// and every malformed file refused at its line and column.
#include "sim/workload/expert_shares.hpp"

#include <gtest/gtest.h>

#include <string>

#include "sim/core/error.hpp"

namespace codesim::workload {
namespace {

std::string refusal(const std::string& text, int layers = 2, int experts = 3) {
  try {
    parse_expert_counts(text, "counts.json", layers, experts);
  } catch (const core::InputError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(ExpertShares, CountsBecomeEachLayersShares) {
  // Layer 0: 1 + 1 + 2 pairs -> 1/4, 1/4, 1/2; layer 1: all on expert 2 -> 0, 0, 1.
  const auto shares = parse_expert_counts("{\"layers\": [[1, 1, 2], [0, 0, 7.5]]}", "c.json", 2, 3);
  ASSERT_EQ(shares.size(), 2u);
  EXPECT_DOUBLE_EQ(shares[0][0], 0.25);
  EXPECT_DOUBLE_EQ(shares[0][2], 0.5);
  EXPECT_DOUBLE_EQ(shares[1][1], 0.0);
  EXPECT_DOUBLE_EQ(shares[1][2], 1.0);
}

TEST(ExpertShares, MalformedFilesAreRefusedWhereTheyGoWrong) {
  EXPECT_EQ(refusal("{\"layers\": [[1, 1, 2],\n [1, 2]]}"),
            "counts.json:2:2: error: layers[1]: expected a list of 3 counts (one per routed "
            "expert), got 2 entries");
  EXPECT_EQ(refusal("{\"layers\": [[1, 1, 2]]}"),
            "counts.json:1:1: error: layers: has 1 lists of expert counts; the model has 2 MoE "
            "layers");
  EXPECT_EQ(refusal("{\"layers\": [[1, 1, 2],\n [1, -2, 0]]}"),
            "counts.json:2:2: error: layers[1][1]: expected a count of at least 0, got -2");
  EXPECT_EQ(refusal("{\"layers\": [[1, 1, 2], [0, 0, 0]]}"),
            "counts.json:1:24: error: layers[1]: no expert has a positive count");
  EXPECT_EQ(refusal("[1, 2]"),
            "counts.json:1:1: error: layers: expected an object with \"layers\": a list of expert "
            "counts per MoE layer");
  EXPECT_EQ(refusal("{\"layers\": [[1, 1, \"two\"], [1, 1, 1]]}"),
            "counts.json:1:13: error: layers[0][2]: expected a count of at least 0, got \"two\"");
}

}  // namespace
}  // namespace codesim::workload
