// The family registry: one descriptor per family, consistent with the enum, the parameter table
// and the builders; validation that is the same for every family.
#include <gtest/gtest.h>

#include <set>

#include "tests/topologies/support.hpp"
#include "topologies/build.hpp"
#include "topologies/properties.hpp"

namespace codesim::topologies {
namespace {

TEST(FamilyRegistry, OneDescriptorPerFamilyInEnumOrder) {
  std::set<std::string_view> spelled;
  int index = 0;
  for (const FamilyDescriptor* d : families()) {
    EXPECT_EQ(static_cast<int>(d->family), index++) << d->name;
    EXPECT_TRUE(spelled.insert(d->name).second) << d->name;
    if (!d->alias.empty()) {
      EXPECT_TRUE(spelled.insert(d->alias).second) << d->alias;
    }
    EXPECT_NE(d->capacity, nullptr);
    EXPECT_NE(d->problems, nullptr);
    EXPECT_NE(d->build, nullptr);
    EXPECT_NE(d->closed_form, nullptr);
    EXPECT_FALSE(d->summary.empty());
    EXPECT_EQ(family_from_name(d->name), d->family);
    EXPECT_EQ(&descriptor(d->family), d);
  }
  EXPECT_EQ(family_choices(), "node, ft2, ft3, mrft, mpft, slimfly (sf), dragonfly (df)");
}

TEST(FamilyRegistry, EveryParameterReadIsInTheTable) {
  for (const FamilyDescriptor* d : families()) {
    for (const std::string_view read : d->reads) {
      bool known = false;
      for (const NetworkParameter& p : kNetworkParameters) {
        known = known || p.name == read;
      }
      EXPECT_TRUE(known) << d->name << " reads " << read;
    }
  }
  for (const NetworkParameter& p : kNetworkParameters) {
    EXPECT_FALSE(families_reading(p.name).empty()) << p.name << " is read by no family";
  }
  EXPECT_EQ(families_reading("switch_radix"), "ft2, ft3, mrft, mpft");
  EXPECT_EQ(families_reading("endpoints_per_router"), "slimfly, dragonfly");
}

// A value given for a parameter the family does not read is a problem, for every family, named by
// the parameter with the families that read it.
TEST(FamilyRegistry, UnreadParametersMustKeepTheirDefaults) {
  std::string out;
  for (const auto& p :
       validate({.family = Family::node, .radix = 32, .oversubscription = 2}, 1, 8)) {
    out += p.parameter + ": " + p.message + "\n";
  }
  EXPECT_EQ(
      out,
      "switch_radix: only ft2, ft3, mrft, mpft read it; node takes the default 64, got 32\n"
      "oversubscription: only ft2, ft3, mrft, mpft read it; node takes the default 1, got 2\n");
  EXPECT_TRUE(validate({.family = Family::ft2, .radix = 8, .oversubscription = 2}, 4, 8).empty());
}

// The descriptor's builder is what build_topology runs: the family it reports is its own, and its
// closed form counts the switches the built graph has (fat trees count exactly).
TEST(FamilyRegistry, BuilderAndClosedFormAgree) {
  const NodeSpec node = testing::h800_node();
  for (const NetworkSpec& s :
       {NetworkSpec{.family = Family::node}, NetworkSpec{.family = Family::ft2, .radix = 8},
        NetworkSpec{.family = Family::ft3, .radix = 8},
        NetworkSpec{.family = Family::mrft, .radix = 8},
        NetworkSpec{.family = Family::mpft, .radix = 8, .planes = 8}}) {
    const int nodes = s.family == Family::node ? 1 : 4;
    const Topology t = build_topology(s, node, nodes);
    EXPECT_EQ(t.family(), s.family);
    EXPECT_EQ(closed_form(s, node, nodes, {}).counts.switches, count(t).switches)
        << family_name(s.family);
  }
}

}  // namespace
}  // namespace codesim::topologies
