// Bad topology specs: every problem names its parameter and says why, word for word.
#include <gtest/gtest.h>

#include "topologies/network_spec.hpp"

namespace codesim::topologies {
namespace {

std::string problems(const NetworkSpec& s, int nodes, int gpus_per_node = 8) {
  std::string out;
  for (const auto& p : validate(s, nodes, gpus_per_node)) {
    out += p.parameter + ": " + p.message + "\n";
  }
  return out;
}

TEST(SpecValidation, WordForWord) {
  EXPECT_EQ(problems({.family = Family::ft2, .radix = 63}, 4),
            "switch_radix: must be even and at least 4 (half the ports down, half up), got 63\n");
  EXPECT_EQ(problems({.family = Family::ft2, .radix = 8}, 5),
            "nodes: 5 nodes x 8 GPUs = 40 endpoints exceed the ft2's 32\n");
  EXPECT_EQ(problems({.family = Family::ft3, .radix = 8}, 17),
            "nodes: 17 nodes x 8 GPUs = 136 endpoints exceed the ft3's 128\n");
  EXPECT_EQ(
      problems({.family = Family::mpft, .radix = 8, .planes = 4}, 4),
      "planes: mpft puts GPU i's NIC in plane i: planes must equal gpus_per_node (8), got 4\n");
  EXPECT_EQ(problems({.family = Family::node}, 2),
            "family: a single node has no network; 2 nodes need one (ft2, mpft, ...)\n");
  EXPECT_EQ(
      problems({.family = Family::slimfly, .slimfly_q = 28, .endpoints_per_router = 21}, 4116),
      "slimfly_q: must be a prime of at least 5 (codesim builds MMS graphs over prime fields), got "
      "28\n");
  EXPECT_EQ(problems({.family = Family::slimfly, .slimfly_q = 5}, 1),
            "endpoints_per_router: must be at least 1, got 0\n");
  EXPECT_EQ(problems({.family = Family::dragonfly,
                      .endpoints_per_router = 2,
                      .dragonfly_a = 4,
                      .dragonfly_h = 2,
                      .dragonfly_groups = 10},
                     1),
            "dragonfly_groups: at most a x h + 1 = 9 groups can all be joined directly, got 10\n");
  EXPECT_EQ(
      problems({.family = Family::dragonfly,
                .endpoints_per_router = 1,
                .dragonfly_a = 3,
                .dragonfly_h = 1,
                .dragonfly_groups = 3},
               1),
      "dragonfly_groups: groups x a x h must be even (each global link has two ends), got 9\n");
  EXPECT_EQ(problems({.family = Family::dragonfly}, 1),
            "dragonfly_a: a group needs at least 2 routers, got 0\n"
            "dragonfly_h: each router needs at least 1 global link, got 0\n"
            "endpoints_per_router: must be at least 1, got 0\n"
            "dragonfly_groups: must be at least 2, got 0\n");
  EXPECT_EQ(problems({.family = Family::mrft, .radix = 8}, 4), "");
}

TEST(SpecValidation, Capacity) {
  EXPECT_EQ(endpoint_capacity({.family = Family::ft2, .radix = 64}), 2048);
  EXPECT_EQ(endpoint_capacity({.family = Family::ft3, .radix = 64}), 65536);
  EXPECT_EQ(endpoint_capacity({.family = Family::mpft, .radix = 64, .planes = 8}), 16384);
  EXPECT_EQ(
      endpoint_capacity({.family = Family::slimfly, .slimfly_q = 28, .endpoints_per_router = 21}),
      32928);
  EXPECT_EQ(endpoint_capacity({.family = Family::dragonfly,
                               .endpoints_per_router = 16,
                               .dragonfly_a = 32,
                               .dragonfly_h = 16,
                               .dragonfly_groups = 511}),
            261632);
}

}  // namespace
}  // namespace codesim::topologies
