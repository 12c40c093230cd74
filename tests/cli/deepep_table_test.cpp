// DeepEP's kernels against its published H800 table (DeepEP README, first release: H800,
// ConnectX-7 400 Gb/s, 24 SMs, 4096 tokens per GPU, tokens routed at random to at most 4 nodes),
// as tools/a2a_table.sh prints it. Issue 34: within 15% of every row not used for fitting; the
// EP16 dispatch row is the one fitted (the forwarding rate per SM, hardware::CommCosts).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <tuple>

#include "tests/support/run_cli.hpp"

namespace codesim::testing {
namespace {

struct Row {
  int ep;
  double dispatch_GBps;  // published, DeepEP's accounting (EP8: NVLink)
  double combine_GBps;
};

TEST(DeepEpTable, NormalKernelsWithinFifteenPercentOfThePublishedRows) {
  for (const Row& row : {Row{8, 153, 158}, Row{16, 43, 43}, Row{32, 58, 57}, Row{64, 51, 50}}) {
    SCOPED_TRACE("EP" + std::to_string(row.ep));
    const auto r = run_codesim(
        "a2a --gpu h800 --mode deepep-normal --family mpft --strength 0 "
        "--node-limit 4 --sms 24 --tokens 4096 --format json --ep " +
        std::to_string(row.ep));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    for (const auto& [phase, published] :
         {std::pair{"dispatch", row.dispatch_GBps}, {"combine", row.combine_GBps}}) {
      const auto& p = j[phase];
      const double model = row.ep == 8 ? p["nvlink_bandwidth_GBps"].get<double>()
                                       : p["deepep_rdma_bandwidth_GBps"].get<double>();
      // Time error = published bandwidth / modelled bandwidth - 1.
      EXPECT_NEAR(published / model - 1, 0.0, 0.15) << phase;
    }
  }
}

TEST(DeepEpTable, LowLatencyKernelsAgainstThePublishedRows) {
  // 128 tokens per GPU, no node limit, a single-plane fat tree (the first release reaches a GPU
  // of its own node through the NIC), published times in us. Fitted: pure-RDMA EP8 dispatch (the
  // kernels' rate) and NVLink-variant EP8 dispatch (its cost per message copied over NVLink).
  // Issue 34: every other cell within 15%.
  struct Published {
    int ep;
    double rdma_dispatch, rdma_combine, nvlink_dispatch, nvlink_combine;
  };
  for (const Published& p :
       {Published{8, 163, 318, 77, 114}, Published{16, 173, 329, 118, 195},
        Published{32, 182, 350, 155, 273}, Published{64, 186, 353, 173, 314},
        Published{128, 192, 369, 192, 369}, Published{256, 194, 360, 194, 360}}) {
    SCOPED_TRACE("EP" + std::to_string(p.ep));
    for (const auto& [mode, dispatch, combine] :
         {std::tuple{"deepep-low-latency", p.rdma_dispatch, p.rdma_combine},
          std::tuple{"deepep-low-latency-nvlink", p.nvlink_dispatch, p.nvlink_combine}}) {
      const auto r =
          run_codesim(std::string("a2a --gpu h800 --family ft2 --strength 0 --node-limit 8 "
                                  "--tokens 128 --format json --mode ") +
                      mode + " --ep " + std::to_string(p.ep));
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const auto j = nlohmann::json::parse(r.out);
      EXPECT_NEAR(j["dispatch"]["time_us"].get<double>() / dispatch - 1, 0.0, 0.15) << mode;
      EXPECT_NEAR(j["combine"]["time_us"].get<double>() / combine - 1, 0.0, 0.15) << mode;
    }
  }
}

}  // namespace
}  // namespace codesim::testing
