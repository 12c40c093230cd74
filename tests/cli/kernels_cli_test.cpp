// `codesim kernels` as a user runs it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

namespace codesim::testing {
namespace {

nlohmann::json kernels_json(const std::string& args) {
  const auto r = run_codesim("kernels " + args + " --format json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

TEST(KernelsCli, RoutingRespectsTheNodeLimitAndBalances) {
  // A smaller hidden size keeps the test quick; routing statistics do not depend on it.
  const auto j =
      kernels_json("routing --tokens 4096 --ep 64 --node-limit 4 --hidden 512 --balance-steps 150");
  EXPECT_LE(j["max_nodes_per_token"].get<int>(), 4);
  EXPECT_GT(j["mean_nodes_per_token"].get<double>(), 1.0);
  EXPECT_NEAR(j["mean_experts_per_node"].get<double>() * j["mean_nodes_per_token"].get<double>(),
              8.0, 1e-9);
  EXPECT_EQ(j["dispatch_tokens_received_per_gpu"].size(), 64u);
  EXPECT_LT(j["expert_load_cv_balanced"].get<double>() * 3,
            j["expert_load_cv_unbalanced"].get<double>());
  const auto unlimited =
      kernels_json("routing --tokens 4096 --ep 64 --node-limit 8 --hidden 512 --balance-steps 0");
  EXPECT_GT(unlimited["max_nodes_per_token"].get<int>(), 4);
}

TEST(KernelsCli, SameSeedSameJson) {
  // Byte-identical output for the same arguments and seed.
  const std::string args =
      "kernels routing --tokens 1024 --hidden 256 --balance-steps 5 --seed 7 --format json";
  const auto a = run_codesim(args);
  const auto b = run_codesim(args);
  EXPECT_EQ(a.exit_code, 0);
  EXPECT_EQ(a.out, b.out);
}

TEST(KernelsCli, Fp8LogfmtMla) {
  const auto fp8 = kernels_json("fp8 --m 16 --k 4096 --n 16");
  EXPECT_LT(fp8["relative_error_promoted"].get<double>() * 4,
            fp8["relative_error_unpromoted"].get<double>());
  const auto logfmt = kernels_json("logfmt --values 16384");
  EXPECT_LT(logfmt["relative_rms_error"]["logfmt8"].get<double>(),
            logfmt["relative_rms_error"]["e4m3"].get<double>());
  const auto mla = kernels_json("mla --tokens 32 --heads 2");
  EXPECT_LT(mla["relative_difference_naive_absorbed"].get<double>(), 1e-5);
  EXPECT_DOUBLE_EQ(mla["naive_gflop"].get<double>(),
                   mla["analytics_gflop_noncausal"].get<double>());
}

TEST(KernelsCli, BadArguments) {
  const auto r = run_codesim("kernels routing --ep 48");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "codesim kernels: error: --ep must divide the model's 256 routed experts, got 48\n");
  const auto m = run_codesim("kernels routing --node-limit 9");
  EXPECT_EQ(m.exit_code, 2);
  EXPECT_EQ(m.err,
            "codesim kernels: error: --node-limit: the limit counts the expert groups a token "
            "may reach (the gate's 8; one group is one node's experts only when EP spans 8 "
            "nodes): between 1 and 8, 8 for no limit, got 9\n");
  const auto d = run_codesim("kernels routing --model llama3.1-405b");
  EXPECT_EQ(d.exit_code, 2);
  EXPECT_EQ(
      d.err,
      "codesim kernels: error: llama3.1-405b is a dense model: it has no experts to route to\n");
  EXPECT_EQ(run_codesim("kernels sorting").exit_code, 2);
}

}  // namespace
}  // namespace codesim::testing
