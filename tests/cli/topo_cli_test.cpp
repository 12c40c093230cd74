// `codesim topo` as a user runs it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

namespace codesim::testing {
namespace {

TEST(TopoCli, CompareReproducesTable3) {
  const auto r = run_codesim("topo --compare ft2,mpft,ft3,sf,df --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = nlohmann::json::parse(r.out);
  ASSERT_EQ(rows.size(), 5u);
  for (const auto& row : rows) {
    for (const char* key : {"name", "endpoints", "switches", "links", "cost_usd",
                            "cost_per_endpoint_usd", "diameter", "bisection_bandwidth_Bps"}) {
      EXPECT_TRUE(row.contains(key)) << key;
    }
    const auto& pub = row["published"];
    EXPECT_EQ(row["endpoints"], pub["endpoints"]) << row["name"];
    EXPECT_EQ(row["switches"], pub["switches"]) << row["name"];
    EXPECT_EQ(row["links"], pub["links"]) << row["name"];
    EXPECT_NEAR(row["cost_usd"].get<double>() / pub["cost_usd"].get<double>(), 1.0, 0.05)
        << row["name"];
    EXPECT_NEAR(
        row["cost_per_endpoint_usd"].get<double>() / pub["cost_per_endpoint_usd"].get<double>(),
        1.0, 0.05)
        << row["name"];
  }
  EXPECT_EQ(rows[0]["diameter"], 2);
  EXPECT_EQ(rows[2]["diameter"], 4);
  EXPECT_EQ(rows[0]["bisection_bandwidth_Bps"].get<double>(), 2048 / 2 * 50e9);  // full bisection
}

TEST(TopoCli, FromTheShippedScenario) {
  const auto r = run_codesim("topo --scenario scenarios/deepseek-v3-h800-mpft.yaml --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["gpus"], 2048);
  EXPECT_EQ(j["endpoints"], 2048);
  // 8 planes x (8 leaves + 4 spines, each leaf with 8 links to each); 8 x 8 leaves x 32 uplinks.
  EXPECT_EQ(j["switches"], 8 * (8 + 4));
  EXPECT_EQ(j["links"], 8 * 8 * 32);
}

TEST(TopoCli, RouteAndDot) {
  const auto r = run_codesim("topo --family mpft --radix 8 --nodes 4 --route 1,30");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            // GPU 30 is GPU 6 of node 3: NVLink to GPU 6 of node 0, then plane 6 (one leaf).
            "GPU 1 -> GPU 30: 6 links, 0 switch-to-switch, 1 equal-cost path(s)\n"
            "  gpu_n0_1 > nvswitch_n0 > gpu_n0_6 > nic_n0_6 > leaf74 > nic_n3_6 > gpu_n3_6\n");
  const auto dot = run_codesim("topo --family mpft --radix 8 --nodes 4 --format dot");
  EXPECT_EQ(dot.exit_code, 0);
  EXPECT_NE(dot.out.find("label=\"plane 7\""), std::string::npos);
}

// The network flags are the schema's keys; --help says which key each one sets and where a
// subcommand's default differs from the schema's, and hides the old spellings.
TEST(TopoCli, NetworkFlagsAreTheSchemaKeys) {
  const auto help = run_codesim("a2a --help");
  EXPECT_EQ(help.exit_code, 0);
  for (const char* flag :
       {"--switch-radix", "--slimfly-q", "--endpoints-per-router", "--dragonfly-a", "--dragonfly-h",
        "--dragonfly-groups", "--gpu", "--family", "--planes", "--oversubscription"}) {
    EXPECT_NE(help.out.find(flag), std::string::npos) << flag;
  }
  EXPECT_NE(help.out.find("topology.family: node, ft2"), std::string::npos);
  EXPECT_NE(help.out.find("(default here mpft; the schema's node)"), std::string::npos);
  EXPECT_NE(help.out.find("Read by mpft. (default here 8; the schema's 1)"), std::string::npos);
  EXPECT_NE(help.out.find("Ports per switch. Read by ft2, ft3, mrft, mpft."), std::string::npos);
  EXPECT_EQ(help.out.find("--radix"), std::string::npos);  // hidden alias
  EXPECT_EQ(run_codesim("collective --help").out.find("default here"),
            run_codesim("collective --help").out.find("default here 8"));  // only --planes differs
}

TEST(TopoCli, BadSpecsNameTheFlag) {
  const auto r = run_codesim("topo --family ft2 --radix 8 --nodes 5");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "codesim topo: error: --nodes: 5 nodes x 8 GPUs = 40 endpoints exceed the ft2's 32\n");
  // Flags are named as the scenario keys (topology.slimfly_q); the short spellings still work.
  const auto q = run_codesim("topo --family sf --slimfly-q 28 --endpoints-per-router 21");
  EXPECT_EQ(q.exit_code, 2);
  EXPECT_EQ(q.err,
            "codesim topo: error: --slimfly-q: must be a prime of at least 5 (codesim builds MMS "
            "graphs over prime fields), got 28\n");
  EXPECT_EQ(run_codesim("topo --family sf --q 28 --p 21").err, q.err);
  const auto c = run_codesim("topo --compare ft2,xx");
  EXPECT_EQ(c.exit_code, 2);
  EXPECT_EQ(c.err,
            "codesim topo: error: unknown instance 'xx' in --compare\n"
            "  hint: instances of ISCA 2025 Table 3: ft2, mpft, ft3, sf, df\n");
}

}  // namespace
}  // namespace codesim::testing
