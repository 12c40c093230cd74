// `codesim sweep` on the small step's four-point sweep (tests/scenarios/small-sweep.yaml): the
// three result files, resuming without recomputing a point, determinism whatever --jobs, and
// malformed sweeps refused before any point runs, word for word.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "tests/support/run_cli.hpp"
#include "tests/support/temp_dir.hpp"

namespace codesim::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kSweep = "tests/scenarios/small-sweep.yaml";

// A file's identity and last write: a recomputed point gets a new file (written then renamed).
struct Stamp {
  ino_t inode = 0;
  long long mtime_ns = 0;
  bool operator==(const Stamp&) const = default;
};

Stamp stamp(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(stat(path.c_str(), &st), 0) << path;
  return {st.st_ino, st.st_mtim.tv_sec * 1'000'000'000LL + st.st_mtim.tv_nsec};
}

std::string point(const TempDir& d, int i) {
  return d / ("out/points/point-000" + std::to_string(i) + ".json");
}

TEST(SweepCli, WritesTheResultsAndResumesWithoutRecomputing) {
  const TempDir d("sweep");
  const auto first = run_codesim("sweep " + kSweep + " --out " + (d / "out") + " --jobs 2");
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const std::string csv = read_file(d / "out/results.csv");
  ASSERT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5);  // header + 4 points
  EXPECT_EQ(csv.rfind("point,routing.node_limit,schedule.method,step_time_s,tokens_per_day,", 0),
            0u);
  EXPECT_NE(csv.find("\r\n3,2,1f1b,"), std::string::npos);
  const std::string results = read_file(d / "out/results.json");
  const json j = json::parse(results);
  ASSERT_EQ(j["points"].size(), 4u);
  for (const auto& p : j["points"]) {
    EXPECT_GT(p["result"]["step_time_s"].get<double>(), 0);
  }
  EXPECT_NE(read_file(d / "out/report.html").find("<svg"), std::string::npos);

  // One point lost, one recorded as killed (a failure worth retrying), the reports gone: the
  // rerun computes exactly those two, one at a time, and writes byte-identical results.
  const Stamp kept0 = stamp(point(d, 0));
  const Stamp kept2 = stamp(point(d, 2));
  json killed = json::parse(read_file(point(d, 3)));
  killed["exit_code"] = -1;
  killed["result"] = nullptr;
  killed["error"] = "killed";
  std::ofstream(point(d, 3)) << killed.dump();
  for (const char* f :
       {"out/points/point-0001.json", "out/results.json", "out/results.csv", "out/report.html"}) {
    fs::remove(d / f);
  }
  const auto second = run_codesim("sweep " + kSweep + " --out " + (d / "out") + " --jobs 1");
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(stamp(point(d, 0)), kept0);
  EXPECT_EQ(stamp(point(d, 2)), kept2);
  EXPECT_TRUE(fs::exists(point(d, 1)));
  EXPECT_EQ(json::parse(read_file(point(d, 3)))["exit_code"], 0);
  EXPECT_EQ(read_file(d / "out/results.json"), results);
  EXPECT_EQ(read_file(d / "out/results.csv"), csv);
}

TEST(SweepCli, AKilledSweepCompletesWithTheNextRun) {
  const TempDir d("sweep_kill");
  const std::string out = d / "out";
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    setpgid(0, 0);  // its own group: the kill takes the point it is running too
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
    chdir(CODESIM_SOURCE_DIR);
    execl(CODESIM_BINARY, CODESIM_BINARY, "sweep", kSweep.c_str(), "--out", out.c_str(), "--jobs",
          "1", static_cast<char*>(nullptr));
    _exit(127);
  }
  setpgid(child, child);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
  while (!fs::exists(point(d, 0)) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill(-child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(fs::exists(point(d, 0)));
  ASSERT_FALSE(fs::exists(d / "out/results.json"));  // killed before the end
  std::vector<std::pair<int, Stamp>> done;
  for (int i = 0; i < 4; ++i) {
    if (fs::exists(point(d, i))) {
      done.emplace_back(i, stamp(point(d, i)));
    }
  }
  const auto rerun = run_codesim("sweep " + kSweep + " --out " + out);
  ASSERT_EQ(rerun.exit_code, 0) << rerun.err;
  for (const auto& [i, before] : done) {
    EXPECT_EQ(stamp(point(d, i)), before) << "point " << i << " was computed twice";
  }
  EXPECT_EQ(json::parse(read_file(d / "out/results.json"))["points"].size(), 4u);
  std::cout << done.size() << " of 4 points were done when the sweep was killed\n";
}

TEST(SweepCli, DryRunListsThePoints) {
  const auto r = run_codesim("sweep " + kSweep + " --dry-run");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "small-sweep: 4 points (cartesian), every one checked, none run\n"
            "point  routing.node_limit  schedule.method\n"
            "-----  ------------------  ---------------\n"
            "    0                   1         dualpipe\n"
            "    1                   1             1f1b\n"
            "    2                   2         dualpipe\n"
            "    3                   2             1f1b\n");
}

// A sweep over the small step written to a temporary file; the command's exit code and stderr.
CliResult sweep_of(const TempDir& d, const std::string& sweep, const std::string& flags = "") {
  std::ofstream(d / "s.yaml") << "include: " CODESIM_SOURCE_DIR "/tests/scenarios/small-step.yaml\n"
                              << sweep;
  return run_codesim("sweep " + (d / "s.yaml") + " --out " + (d / "out") + flags);
}

TEST(SweepCli, MalformedSweepsFailBeforeAnyPointRuns) {
  const TempDir d("sweep_bad");
  const std::string file = d / "s.yaml";
  const auto expect = [&](const std::string& sweep, const std::string& message) {
    const auto r = sweep_of(d, sweep);
    EXPECT_EQ(r.exit_code, 2) << sweep;
    EXPECT_EQ(r.err, message) << sweep;
    EXPECT_FALSE(fs::exists(d / "out")) << sweep;
  };
  expect("sweep:\n  routing.nodelimit: [1, 2]\n",
         file +
             ":3:3: error: sweep.routing.nodelimit: unknown key path\n"
             "  hint: did you mean 'routing.node_limit'?\n");
  expect("sweep:\n  hardware.comm_sms: []\n",
         file +
             ":3:22: error: sweep.hardware.comm_sms: has no values\n"
             "  hint: give at least one value: [a, b]\n");
  expect("sweep:\n  hardware.nic_bandwidth: [50GBps, 100GB]\n",
         file +
             ":3:36: error: hardware.nic_bandwidth: '100GB' is a size, not a bandwidth\n"
             "  hint: append 'ps' or '/s': 100GBps\n");
  // Sweeps report training steps: a point that is an inference step fails at its value.
  expect("parallelism: {pp: 1, dp: 64}\nsweep:\n  workload.kind: [train, decode]\n",
         file +
             ":4:26: error: workload.kind: sweeps report training steps only so far; a decode "
             "step is reported by codesim run\n"
             "  hint: run each inference scenario with codesim run\n");
  expect("name: no-sweep\n", file +
                                 ": error: sweep: the scenario has no sweep: section\n"
                                 "  hint: add one, e.g. sweep: {routing.node_limit: [1, 2, 4, 8]} "
                                 "(scenarios/SCHEMA.md)\n");
}

}  // namespace
}  // namespace codesim::testing
