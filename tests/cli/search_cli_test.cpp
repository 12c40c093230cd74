// `codesim search` on the small step's six configurations (tests/scenarios/small-search.yaml):
// the rejected ones with their reason, the screened ones ranked, the best two simulated in full
// and ranked above the others, the three files, resuming without rerunning, and --dry-run word for
// word.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/support/count.hpp"
#include "tests/support/run_cli.hpp"
#include "tests/support/temp_dir.hpp"

namespace codesim::testing {
namespace {

using nlohmann::json;

const std::string kSearch = "tests/scenarios/small-search.yaml";

TEST(SearchCli, DryRunListsEveryConfigurationAndWhyOnesAreRejected) {
  const auto r = run_codesim("search " + kSearch + " --dry-run");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string why =
      "parallelism.pp: pp x tp x cp = 3 x 1 x 1 = 3 GPUs per data-parallel replica do not divide "
      "the GPU count, nodes x gpus_per_node = 8 x 8 = 64\n";
  EXPECT_EQ(r.out,
            "small-search: 6 configurations, 2 rejected before simulation, none run\n"
            "candidate  parallelism.pp  routing.node_limit   checked\n"
            "---------  --------------  ------------------  --------\n"
            "        0               2                   2        ok\n"
            "        1               2                   4        ok\n"
            "        2               3                   2  rejected\n"
            "        3               3                   4  rejected\n"
            "        4               4                   2        ok\n"
            "        5               4                   4        ok\n"
            "candidate 2: " +
                why + "candidate 3: " + why);
}

TEST(SearchCli, ACandidateWhosePeakDoesNotFitIsRejectedByHowMuch) {
  // With 550 GB per GPU, pipeline depth 2's state (118.1 + 236.1 + 170.7 = 524.8 GB) fits, so it
  // is simulated, but its step's peak (587.9 GB with 63.0 GB of activations: layers 0-32 and
  // 33-60 as placed by their cost, the head's loss on the second stage), the CUDA context and
  // libraries' 0.735 GB and DeepEP's buffers for EP16 over 2 nodes on 20 SMs (0.470 GB:
  // workload::deepep_normal_buffer_bytes) do not: rejected by 39.1 GB.
  // Depth 4 (397.3 GB) is kept.
  const TempDir d("search-memory");
  const auto r =
      run_codesim("search " + kSearch + " --set hardware.hbm_capacity=550GB --out " + (d / "out"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(read_file(d / "out/ranking.json"));
  int over = 0;
  for (const auto& e : j["ranking"]) {
    if (e["values"]["parallelism.pp"] == "2") {
      EXPECT_EQ(e["rejected"].get<std::string>(),
                "memory: the first rank needs 589.1 GB of its 550 GB, over by 39.1 GB");
      ++over;
    } else if (e["values"]["parallelism.pp"] == "4") {
      EXPECT_EQ(e["rejected"].get<std::string>(), "");
    }
  }
  EXPECT_EQ(over, 2);
}

TEST(SearchCli, ScreensRanksSimulatesTheBestInFullAndResumes) {
  const TempDir d("search");
  const auto first = run_codesim("search " + kSearch + " --out " + (d / "out"));
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const json j = json::parse(read_file(d / "out/ranking.json"));
  ASSERT_EQ(j["ranking"].size(), 6u);
  // The best two (by the fast tier) were simulated in full and rank first; the other two kept
  // ones follow by their fast figures; the rejected come last, with the rule that refused them.
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(j["ranking"][i]["tier"], "full") << i;
    EXPECT_FALSE(j["ranking"][i]["full"].is_null());
  }
  for (int i = 2; i < 4; ++i) {
    EXPECT_EQ(j["ranking"][i]["tier"], "fast") << i;
    EXPECT_TRUE(j["ranking"][i]["full"].is_null());
  }
  EXPECT_GE(j["ranking"][0]["objective"].get<double>(), j["ranking"][1]["objective"].get<double>());
  EXPECT_GE(j["ranking"][2]["objective"].get<double>(), j["ranking"][3]["objective"].get<double>());
  for (int i = 4; i < 6; ++i) {
    EXPECT_TRUE(j["ranking"][i]["tier"].is_null());
    EXPECT_EQ(j["ranking"][i]["values"]["parallelism.pp"], "3");
    EXPECT_EQ(
        j["ranking"][i]["rejected"].get<std::string>().rfind("parallelism.pp: pp x tp x cp", 0),
        0u);
  }
  // The fast tier's figure for a configuration simulated in full is within 5% of it.
  const double fast = j["ranking"][0]["fast"]["step_time_s"].get<double>();
  const double full = j["ranking"][0]["full"]["step_time_s"].get<double>();
  EXPECT_NEAR(fast / full, 1.0, 0.05);
  // The scenario as written (pp 4, node limit 4) is marked.
  int base = 0;
  for (const auto& e : j["ranking"]) {
    if (e["base"].get<bool>()) {
      ++base;
      EXPECT_EQ(e["values"]["parallelism.pp"], "4");
      EXPECT_EQ(e["values"]["routing.node_limit"], "4");
    }
  }
  EXPECT_EQ(base, 1);
  const std::string csv = read_file(d / "out/ranking.csv");
  EXPECT_EQ(csv.rfind("rank,parallelism.pp,routing.node_limit,base,tier,step_time_s,"
                      "tokens_per_day,mfu_causal,memory_gb,network_usd,objective,"
                      "fast_step_time_s,rejected\r\n",
                      0),
            0u);
  EXPECT_EQ(count_of(csv, "\r\n"), 7);
  const std::string html = read_file(d / "out/report.html");
  EXPECT_EQ(count_of(html, "class=\"pareto\""), 1);
  EXPECT_EQ(count_of(html, "<circle class=\"point"), 4);  // the kept configurations
  // Run again: both full simulations are reused (their records are not rewritten, which would
  // replace the files), the ranking is the same.
  auto inode = [&](const std::string& name) {
    struct stat st {};
    EXPECT_EQ(stat((d / ("out/points/" + name)).c_str(), &st), 0) << name;
    return st.st_ino;
  };
  // The two simulated in full are the two best by the fast tier, whichever points they are.
  std::vector<std::string> records;
  for (const auto& entry : std::filesystem::directory_iterator(d / "out/points")) {
    records.push_back(entry.path().filename().string());
  }
  std::sort(records.begin(), records.end());
  ASSERT_EQ(records.size(), 2u);
  const auto before = std::vector{inode(records[0]), inode(records[1])};
  const auto again = run_codesim("search " + kSearch + " --out " + (d / "out"));
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ((std::vector{inode(records[0]), inode(records[1])}), before);
  EXPECT_EQ(json::parse(read_file(d / "out/ranking.json")), j);
}

TEST(SearchCli, AScenarioWithoutASearchIsRefused) {
  const auto r = run_codesim("search tests/scenarios/small-step.yaml --out /nonexistent");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "tests/scenarios/small-step.yaml: error: search: the scenario has no search: section\n"
            "  hint: add one, e.g. search: {keys: {parallelism.pp: [8, 16]}} "
            "(scenarios/SCHEMA.md)\n");
}

}  // namespace
}  // namespace codesim::testing
