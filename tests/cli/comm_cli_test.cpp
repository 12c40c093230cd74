// `codesim a2a` and `codesim collective` as a user runs them: the keys, the physics they must
// show, byte-identical reruns, and exact usage errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <tuple>
#include <utility>
#include <vector>

#include "tests/support/data_files.hpp"
#include "tests/support/run_cli.hpp"

namespace codesim::testing {
namespace {

nlohmann::json run_json(const std::string& args) {
  const auto r = run_codesim(args + " --format json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

// Small gate width and few balancing steps keep these quick; routing statistics do not depend
// on the gate's width.
const std::string kA2a = "a2a --gate-hidden 64 --balance-steps 10 --tokens 256";

TEST(A2aCli, ReportsDispatchAndCombineAsDeepEpDoes) {
  const auto j = run_json(kA2a + " --hardware h800 --topology mpft --ep 64 --node-limit 4");
  for (const char* phase : {"dispatch", "combine"}) {
    for (const char* key : {"time_us", "rdma_bytes_per_gpu", "nvlink_bytes_per_gpu",
                            "rdma_bandwidth_GBps", "nvlink_bandwidth_GBps"}) {
      ASSERT_TRUE(j[phase].contains(key)) << phase << "." << key;
    }
    // DeepEP's figure: RDMA bytes sent per GPU over the time; a NIC carries at most 50 GB/s.
    const auto& p = j[phase];
    EXPECT_NEAR(p["rdma_bandwidth_GBps"].get<double>(),
                p["rdma_bytes_per_gpu"].get<double>() / (p["time_us"].get<double>() * 1e-6) / 1e9,
                1e-9);
    EXPECT_LE(p["rdma_bandwidth_GBps"].get<double>(), 50.0);
  }
  EXPECT_LE(j["max_nodes_per_token"].get<int>(), 4);
  // Combine moves BF16 (14336 B) where dispatch moved 7488 B per token.
  EXPECT_NEAR(j["combine"]["rdma_bytes_per_gpu"].get<double>() /
                  j["dispatch"]["rdma_bytes_per_gpu"].get<double>(),
              14336.0 / 7488.0, 1e-9);
}

TEST(A2aCli, OneNodeUsesNoRdmaAndMoreNodesPerTokenMoveMoreIbBytes) {
  const auto one = run_json(kA2a + " --ep 8");
  EXPECT_EQ(one["dispatch"]["rdma_bytes_per_gpu"].get<double>(), 0.0);
  EXPECT_GT(one["dispatch"]["nvlink_bytes_per_gpu"].get<double>(), 0.0);
  const auto m4 = run_json(kA2a + " --ep 64 --node-limit 4");
  const auto m8 = run_json(kA2a + " --ep 64 --node-limit 8");
  EXPECT_GT(m8["dispatch"]["rdma_bytes_per_gpu"].get<double>(),
            m4["dispatch"]["rdma_bytes_per_gpu"].get<double>());
  const auto direct = run_json(kA2a + " --ep 64 --node-limit 4 --mode direct");
  EXPECT_GT(direct["dispatch"]["rdma_bytes_per_gpu"].get<double>(),
            m4["dispatch"]["rdma_bytes_per_gpu"].get<double>());
}

TEST(A2aCli, LowLatencyModeRunsFrom8To256Gpus) {
  for (int ep : {8, 256}) {
    const auto j = run_json(
        "a2a --gate-hidden 128 --balance-steps 0 --mode deepep-low-latency --tokens "
        "128 --ep " +
        std::to_string(ep));
    EXPECT_GT(j["dispatch"]["time_us"].get<double>(), j["dispatch"]["latency_us"].get<double>());
  }
}

TEST(A2aCli, SameSeedSameJson) {
  const std::string args = kA2a + " --ep 16 --seed 5 --format json";
  const auto a = run_codesim(args);
  const auto b = run_codesim(args);
  EXPECT_EQ(a.exit_code, 0);
  EXPECT_EQ(a.out, b.out);
}

TEST(A2aCli, BadFlagsGetExactMessages) {
  const auto ep = run_codesim("a2a --ep 48");
  EXPECT_EQ(ep.exit_code, 2);
  EXPECT_EQ(ep.out, "");
  EXPECT_EQ(ep.err,
            "codesim a2a: error: --ep: --ep must be at least 2 and divide the model's 256 routed "
            "experts, got 48\n");
  // The limit counts the gate's expert groups: EP128 on 16 nodes cannot ask for 16.
  const auto limit = run_codesim("a2a --ep 128 --node-limit 16");
  EXPECT_EQ(limit.exit_code, 2);
  EXPECT_EQ(limit.err,
            "codesim a2a: error: --node-limit: the limit counts the expert groups a token may "
            "reach (the gate's 8; one group is one node's experts only when EP spans 8 nodes): "
            "between 1 and 8, 8 for no limit, got 16\n");
  const auto combine = run_codesim("a2a --combine logfmt-x");
  EXPECT_EQ(combine.err,
            "codesim a2a: error: --combine: unknown combine format 'logfmt-x'\n"
            "  hint: bf16, or logfmt-N with N from 4 to 16\n");
  const auto rate = run_codesim("a2a --sm-copy-rate 8GB");
  EXPECT_EQ(rate.exit_code, 2);
  EXPECT_EQ(rate.err,
            "codesim a2a: error: --sm-copy-rate: '8GB' is a size, not a bandwidth\n"
            "  hint: 50GBps, 400Gbps, 160 GB/s\n");
  const auto nodes = run_codesim("a2a --ep 64 --nodes 4");
  EXPECT_EQ(nodes.err,
            "codesim a2a: error: --nodes: the topology has 32 GPUs, fewer than --ep 64\n");
}

TEST(A2aCli, DeepEpCountsOwnNodeTokensAsRdma) {
  // Normal kernels, EP16 on two H800 nodes: DeepEP's tests count a token once per chosen node,
  // its own included, so their "RDMA bandwidth" exceeds what the NICs carry (about twice, with
  // two nodes), and the kernel is bound by its two-hop forwarding (the forwarding SMs' NVLink
  // sends, half of the 20 SMs), not by the NIC.
  const auto j = run_json(kA2a + " --hardware h800 --topology mpft --ep 16 --strength 0");
  const auto& d = j["dispatch"];
  EXPECT_NEAR(d["deepep_rdma_bytes_per_gpu"].get<double>(),
              j["mean_nodes_per_token"].get<double>() * 256 * j["payload_bytes"]["dispatch"].get<double>(),
              1e-6 * d["deepep_rdma_bytes_per_gpu"].get<double>());
  EXPECT_GT(d["deepep_rdma_bandwidth_GBps"].get<double>(),
            1.8 * d["rdma_bandwidth_GBps"].get<double>());
  EXPECT_EQ(d["bound_by"], "SM copy rate");
}

TEST(A2aCli, LowLatencyKernelsReachTheirOwnNodeThroughTheNicOrOverNvlink) {
  // One node on a single-plane fat tree: the original low-latency kernels send every message
  // through the NIC (40 GB/s for messages of a few KB, at the kernels' fitted 1.091x of it) and no
  // byte over NVLink; the later variant sends them over NVLink and its SMs pay 25.86 ns per message
  // they copy, on the busiest sender: a whole number of messages, at least the mean 256 tokens x 8
  // experts x 7/8 (the own GPU's share stays local) and at most 256 x 8.
  const std::string ll = kA2a + " --hardware h800 --topology ft2 --ep 8";
  const auto rdma = run_json(ll + " --mode deepep-low-latency");
  const auto nvl = run_json(ll + " --mode deepep-low-latency-nvlink");
  EXPECT_EQ(rdma["dispatch"]["nvlink_bytes_per_gpu"].get<double>(), 0);
  EXPECT_GT(rdma["dispatch"]["rdma_bytes_per_gpu"].get<double>(), 0);
  EXPECT_EQ(rdma["dispatch"]["fixed_cost_us"].get<double>(), 0);
  EXPECT_EQ(nvl["dispatch"]["rdma_bytes_per_gpu"].get<double>(), 0);
  EXPECT_GT(nvl["dispatch"]["nvlink_bytes_per_gpu"].get<double>(), 0);
  const double messages = nvl["dispatch"]["fixed_cost_us"].get<double>() / 0.02586;
  EXPECT_NEAR(messages, std::round(messages), 1e-6);
  EXPECT_GE(messages, 256 * 8 * 7 / 8);
  EXPECT_LE(messages, 256 * 8);
  EXPECT_LT(nvl["dispatch"]["time_us"].get<double>(), rdma["dispatch"]["time_us"].get<double>());
}

TEST(CollectiveCli, RingAllReduceInANodeFollowsTheFormula) {
  // t = c + 2 (p - 1) / p * S / B + 2 (p - 1) alpha with B = 160 GB/s, alpha = 3.33 us (H800
  // NVLink), c = 14.5 us per NCCL call with the Simple protocol (NCCL's choice at 1 GB; fitted on
  // 2 H200); the ring's 16 channels at 13.5 GB/s would move 216 GB/s, so NVLink bounds it; bus
  // bandwidth = S / t * 2 (p - 1) / p.
  const auto j = run_json("collective --kind all-reduce --algorithm ring --gpus 8 --sizes 1GB");
  EXPECT_EQ(j["algorithm"], "ring");
  EXPECT_EQ(j["results"][0]["algorithm"], "ring");
  const double t = 14.5e-6 + 2.0 * 7 / 8 * 1e9 / 160e9 + 2 * 7 * 3.33e-6;
  const auto& r = j["results"][0];
  EXPECT_NEAR(r["time_us"].get<double>(), t * 1e6, 1e-6);
  EXPECT_NEAR(r["busbw_GBps"].get<double>(), 1e9 / t * 2 * 7 / 8 / 1e9, 1e-9);
}

TEST(CollectiveCli, NcclsChoiceIsReportedPerSize) {
  // auto (the default): inside an H800 node NCCL's tuner (nccl_tuner_test.cpp) prices NVLS at
  // 25 us and 8 x 22.3 = 178.5 GB/s of bus bandwidth (intra speed 15, 164.8 / 9 allows 18.3;
  // 15 x 0.85 x 7/8 x 2 under the inter speed 30) against the ring's 8 x 20 = 160 with Simple,
  // so NVLS for 1 GB; across 4 nodes of an FT2 the candidates are ring, tree and hierarchical.
  const auto node = run_json("collective --kind all-reduce --gpus 8 --sizes 4KB,1MB,1GB");
  EXPECT_EQ(node["algorithm"], "auto");
  EXPECT_EQ(node["results"][2]["algorithm"], "nvls");
  EXPECT_EQ(node["results"][2]["protocol"], "Simple");  // NVLS has no other
  // NCCL's protocol by size (its tuner, docs/model/nccl.md): a ring of 8 H800s runs LL for a 4 KB
  // call (latency 6.6 + 14 x 0.6 us against Simple's 8.4 + 14 x 3.4) and Simple for 1 GB (LL's
  // 80 GB/s of bus bandwidth, half the 8 rings x 20 GB/s, against Simple's 160).
  const auto ring =
      run_json("collective --kind all-reduce --algorithm ring --gpus 8 --sizes 4KB,1GB");
  EXPECT_EQ(ring["results"][0]["protocol"], "LL");
  EXPECT_EQ(ring["results"][1]["protocol"], "Simple");
  const auto ft2 =
      run_json("collective --kind all-reduce --gpus 32 --topology ft2 --radix 8 --sizes 1GB");
  const std::string chosen = ft2["results"][0]["algorithm"];
  EXPECT_TRUE(chosen == "ring" || chosen == "tree" || chosen == "hierarchical") << chosen;
  for (const char* forced : {"ring", "tree", "hierarchical"}) {
    const auto f = run_json(
        std::string("collective --kind all-reduce --gpus 32 --topology ft2 --radix 8 --sizes 1GB "
                    "--algorithm ") +
        forced);
    EXPECT_GE(f["results"][0]["time_us"].get<double>(),
              ft2["results"][0]["time_us"].get<double>() - 1e-6)
        << forced;
  }
}

TEST(CollectiveCli, TwoH200sWithinTheFitsErrorOnHeldOutSizes) {
  // models/calibration/h200x2/nccl_algos.json: NCCL on 2 H200, CUDA-graph timed. Every third size
  // (64 KiB, 2, 16, 128 MiB, 1 GiB) was kept out of tools/calibration/fit_nccl.py's fit; the
  // model must predict them as that script reports: from 1 MiB up (24 cases) median |error| 5.8%,
  // worst 20.3% (the 2 MiB all-gather, NCCL's LL; issue 34 asks 8% and 20%); all 30 median 7.6%,
  // worst 79.4% (the 64 KiB all-to-all: send and all-to-all share one point-to-point call cost,
  // and their small calls take 18.5 and 6.7 us).
  const auto measured = testing::calibration_data("h200x2/nccl_algos.json");
  const std::vector<std::tuple<std::string, std::string, std::string>> cases = {
      {"default", "send", "--kind send --algorithm direct"},
      {"default", "all_to_all", "--kind all-to-all --algorithm direct"},
      {"ring", "all_gather", "--kind all-gather --algorithm ring"},
      {"ring", "reduce_scatter", "--kind reduce-scatter --algorithm ring"},
      {"ring", "all_reduce", "--kind all-reduce --algorithm ring"},
      {"tree", "all_reduce", "--kind all-reduce --algorithm tree"}};
  std::vector<double> errors;
  std::vector<double> from_1mib;
  for (const auto& [config, op, flags] : cases) {
    const auto j = run_json("collective --hardware h200 --gpus 2 " + flags +
                            " --sizes 64KiB,2MiB,16MiB,128MiB,1GiB");
    int i = 0;
    for (const double size : {64.0 * (1 << 10), 2.0 * (1 << 20), 16.0 * (1 << 20),
                              128.0 * (1 << 20), 1.0 * (1 << 30)}) {
      double time = 0;
      for (const auto& r : measured["results"]) {
        if (r["config"] == config && r["op"] == op && r["size_bytes"].get<double>() == size) {
          time = r["time_us"].get<double>();
        }
      }
      ASSERT_GT(time, 0) << config << " " << op << " " << size;
      errors.push_back(std::abs(j["results"][i++]["time_us"].get<double>() / time - 1));
      if (size >= (1 << 20)) {
        from_1mib.push_back(errors.back());
      }
    }
  }
  const auto median_and_worst = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return std::pair{(v[n / 2 - 1] + v[n / 2]) / 2, v.back()};
  };
  ASSERT_EQ(errors.size(), 30U);
  ASSERT_EQ(from_1mib.size(), 24U);
  const auto [median, worst] = median_and_worst(errors);
  EXPECT_NEAR(median, 0.076, 0.002);
  EXPECT_NEAR(worst, 0.794, 0.002);
  const auto [median_1mib, worst_1mib] = median_and_worst(from_1mib);
  EXPECT_NEAR(median_1mib, 0.058, 0.002);
  EXPECT_NEAR(worst_1mib, 0.203, 0.002);
}

TEST(CollectiveCli, SizesRunOneAfterTheOther) {
  // Each size alone: the 1 GB all-gather takes the same time whether or not 1 MB ran first.
  const auto both = run_json(
      "collective --kind all-gather --gpus 16 --topology ft2 --radix 8 "
      "--sizes 1MB,1GB");
  const auto alone = run_json(
      "collective --kind all-gather --gpus 16 --topology ft2 --radix 8 "
      "--sizes 1GB");
  EXPECT_NEAR(both["results"][1]["time_us"].get<double>(),
              alone["results"][0]["time_us"].get<double>(), 1e-6);
}

TEST(CollectiveCli, BadFlagsGetExactMessages) {
  const auto size = run_codesim("collective --sizes 1MB,8Gb");
  EXPECT_EQ(size.exit_code, 2);
  EXPECT_EQ(size.out, "");
  EXPECT_EQ(size.err,
            "codesim collective: error: --sizes: '8Gb': '8Gb' is in bits; sizes are in bytes\n"
            "  hint: 80GB, 141GiB, 7168B\n");
  const auto algo = run_codesim("collective --kind all-to-all --algorithm ring");
  EXPECT_EQ(algo.err, "codesim collective: error: all-to-all has no ring algorithm\n");
  const auto kind = run_codesim("collective --kind broadcast");
  EXPECT_EQ(kind.err,
            "codesim collective: error: --kind: unknown collective 'broadcast'\n"
            "  hint: one of: all-reduce, all-gather, reduce-scatter, all-to-all, send\n");
}

// `collective ARGS --kind all-to-all` refused before it runs: it would need about NEED MB.
void expect_all_to_all_refused(const std::string& args, int gpus, const std::string& need,
                               const std::string& budget) {
  const auto r = run_codesim("collective " + args + " --kind all-to-all --gpus " +
                             std::to_string(gpus) + " --max-memory-mb " + budget);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "codesim collective: error: --gpus: the all-to-all over " +
                       std::to_string(gpus) + " GPUs would need about " + need +
                       " MB to simulate, over the budget of " + budget +
                       " MB\n  hint: fewer --gpus, or raise --max-memory-mb\n");
}

TEST(CollectiveCli, ASweepOverTheMemoryBudgetIsRefusedBeforeItRuns) {
  // 8 MPFT nodes: 64 GPUs, 64 NICs, 8 NVSwitches, 8 leaves; 192 links (NVLink, PCIe, NIC).
  // Platform: 144 x 1 KB + 192 x 2.25 KB = 0.576 MB; the all-to-all's NICs attach to the 8
  // leaves: 8 x 8 pairs x 110 B + 8 x 144 vertices x 2 B = 0.009 MB; 0.585 MB in all
  // (study::estimated_memory), whatever the sizes.
  expect_all_to_all_refused("--topology mpft --nodes 8 --sizes 1MiB,1GiB", 64, "0.6", "0.5");
  // The 65,536-endpoint FT3 (radix 64): 65,536 GPUs, NICs, 8192 NVSwitches, 5120 switches =
  // 144,384 vertices; 3 x 65,536 NVLink, PCIe and NIC links + 131,072 switch links = 327,680.
  // Platform: 144.384 + 737.28 MB; an all-to-all over all 65,536 GPUs reaches 2048 leaves:
  // 2048^2 x 110 B = 461.38 MB of segments and 2048 x 144,384 x 2 B = 591.40 MB of hop counts;
  // 1934.4 MB in all (4.3e9 flows of 24 bytes would be 103,079 MB). It runs within the default
  // 4096 MB (README: 68 s, 1.88 GB).
  expect_all_to_all_refused("--topology ft3 --radix 64 --nodes 8192", 65536, "1934", "1000");
}

}  // namespace
}  // namespace codesim::testing
