// The search: section (candidates every way, objective, bounds, top); errors word for word.
#include "sim/config/search.hpp"

#include <gtest/gtest.h>

namespace codesim::config {
namespace {

const std::string kSearchBase = "model: {preset: deepseek-v3}\n";

std::optional<Search> search_of(const std::string& yaml) {
  return read_search(read_scenario_text(kSearchBase + yaml, "s.yaml"));
}

std::string search_error_of(const std::string& yaml) {
  try {
    search_of(yaml);
  } catch (const core::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Search, NoneWhenTheFileHasNoSection) {
  EXPECT_FALSE(search_of("").has_value());
}

TEST(Search, EveryCombinationOfTheKeysWithDefaults) {
  // 3 x 2 candidates, the last key fastest; tokens_per_day and the best 10 by default.
  const auto s = search_of(
      "search:\n  keys:\n    parallelism.pp: [8, 16, 32]\n    routing.node_limit: [2, 4]\n");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->candidates.points.size(), 6u);
  EXPECT_EQ(s->candidates.points[1][1].text(), "4");
  EXPECT_EQ(s->candidates.points[2][0].text(), "16");
  EXPECT_EQ(s->objective, SearchObjective::tokens_per_day);
  EXPECT_EQ(s->top, 10);
  EXPECT_FALSE(s->max_network_usd.has_value());
}

TEST(Search, ObjectiveBoundAndTop) {
  const auto s = search_of(
      "search:\n  objective: tokens_per_day_per_usd\n  max_network_usd: 1.5e7\n  top: 3\n"
      "  keys: {parallelism.pp: {from: 8, to: 32, step: 8}}\n");
  EXPECT_EQ(s->objective, SearchObjective::tokens_per_day_per_usd);
  EXPECT_DOUBLE_EQ(*s->max_network_usd, 1.5e7);
  EXPECT_EQ(s->top, 3);
  EXPECT_EQ(s->candidates.points.size(), 4u);
}

TEST(Search, ErrorsNameTheKey) {
  EXPECT_EQ(search_error_of("search:\n  objectiv: tokens_per_day\n  keys: {parallelism.pp: [8]}\n"),
            "s.yaml:3:3: error: search.objectiv: unknown key\n"
            "  hint: did you mean 'objective'?");
  EXPECT_EQ(search_error_of("search:\n  objective: mfu\n  keys: {parallelism.pp: [8]}\n"),
            "s.yaml:3:14: error: search.objective: unknown objective 'mfu'\n"
            "  hint: tokens_per_day or tokens_per_day_per_usd (codesim search); days, cost_usd, "
            "gpu_hours or energy_mwh (codesim campaign --search)");
  EXPECT_EQ(search_error_of("search:\n  top: 0\n  keys: {parallelism.pp: [8]}\n"),
            "s.yaml:3:8: error: search.top: expected a whole number from 1 to 1000\n"
            "  hint: top: 10");
  EXPECT_EQ(search_error_of("search:\n  max_network_usd: cheap\n  keys: {parallelism.pp: [8]}\n"),
            "s.yaml:3:20: error: search.max_network_usd: expected a positive number of dollars\n"
            "  hint: max_network_usd: 2.0e7");
  EXPECT_EQ(search_error_of("search:\n  top: 3\n"),
            "s.yaml:3:3: error: search.keys: missing: the key paths to vary, with their "
            "candidates\n"
            "  hint: keys: {parallelism.pp: [8, 16]}");
  // A search has no mode: its keys are combined every way.
  EXPECT_EQ(search_error_of("search:\n  keys: {mode: zip, parallelism.pp: [8]}\n"),
            "s.yaml:3:10: error: search.keys.mode: unknown key path\n"
            "  hint: keys here are key paths such as routing.node_limit");
}

}  // namespace
}  // namespace codesim::config
