// An interrupted run never leaves a half-written output: outputs go to a temporary name and are
// renamed when complete. The test kills `codesim trace import --out` at many points of its run.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/support/run_cli.hpp"

namespace codesim::testing {
namespace {

namespace fs = std::filesystem;

TEST(Interrupted, KilledRunsLeaveNoPartialOutput) {
  const fs::path dir =
      fs::temp_directory_path() / ("codesim_interrupt_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string out = (dir / "step.json").string();
  const std::string trace =
      std::string(CODESIM_SOURCE_DIR) + "/models/calibration/deepseek-h800/train.json";
  int complete = 0;
  int absent = 0;
  for (int delay_ms = 0; delay_ms <= 600; delay_ms += 40) {
    fs::remove(out);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      std::freopen("/dev/null", "w", stdout);
      std::freopen("/dev/null", "w", stderr);
      execl(CODESIM_BINARY, CODESIM_BINARY, "trace", "import", trace.c_str(), "--out", out.c_str(),
            static_cast<char*>(nullptr));
      _exit(127);
    }
    usleep(static_cast<useconds_t>(delay_ms) * 1000);
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    if (!fs::exists(out)) {
      ++absent;
      continue;
    }
    // Present: it must be the whole StepTrace.
    std::ifstream in(out);
    std::stringstream text;
    text << in.rdbuf();
    const auto j = nlohmann::json::parse(text.str(), nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << "partial output after a kill at " << delay_ms << " ms";
    EXPECT_EQ(j["ops"].size(), 983u);
    ++complete;
  }
  EXPECT_GT(absent, 0);  // some kills came before the rename
  fs::remove_all(dir);
  std::cout << absent << " kills before the output existed, " << complete
            << " after it was complete\n";
}

TEST(Interrupted, OversizedTraceIsRefusedUpFront) {
  const auto r =
      run_codesim("trace import models/calibration/deepseek-h800/train.json --max-trace-mb 1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "models/calibration/deepseek-h800/train.json: error: the trace is 3132978 bytes, "
            "over the budget of "
            "1048576 bytes\n"
            "  hint: raise the budget (--max-trace-mb) or profile fewer steps\n");
}

}  // namespace
}  // namespace codesim::testing
