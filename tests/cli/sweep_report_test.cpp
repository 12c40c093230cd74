// The sweep's reports as users see them: report.html rendered by headless Chromium shows its
// charts (a screenshot, decoded with libpng, holds the series colours), and `mpirun -np 2` gives
// the single-process results. Slow (a browser, two MPI ranks): label "slow".
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "tests/support/chromium.hpp"
#include "tests/support/count.hpp"
#include "tests/support/run_cli.hpp"
#include "tests/support/temp_dir.hpp"

namespace codesim::testing {
namespace {

namespace fs = std::filesystem;

const std::string kSweep = "tests/scenarios/small-sweep.yaml";

TEST(SweepReport, ChromiumRendersTheCharts) {
  const TempDir d("sweep_html");
  const auto r = run_codesim("sweep " + kSweep + " --out " + (d / "out"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string html = read_file(d / "out/report.html");
  EXPECT_EQ(count_of(html, "<svg"), 4);  // breakdown, tokens/day, MFU, network cost
  EXPECT_EQ(count_of(html, "<rect class=\"bar\""),
            4 * 5 + 4);                       // 4 points x 5 non-zero parts + cost
  EXPECT_EQ(count_of(html, "<polyline"), 3);  // tokens/day; MFU causal and non-causal
  const std::string shot = d / "shot.png";
  ASSERT_TRUE(screenshot(d / "out/report.html", shot))
      << "chromium failed (tools/setup.sh --test installs it)";
  const auto histogram = colour_histogram(shot);
  EXPECT_GT(inked_share(histogram), 0.05) << "the page is (nearly) blank";
  // The first series colours (1F blue, 1B orange) fill whole bars: thousands of pixels each.
  for (const std::uint32_t colour : {0x4e79a7u, 0xf28e2bu, 0x59a14fu}) {
    EXPECT_GT(pixels_of(histogram, colour), 2000) << std::hex << colour;
  }
}

TEST(SweepMpi, TwoRanksGiveTheSingleProcessResults) {
  const TempDir d("sweep_mpi");
  const auto single = run_codesim("sweep " + kSweep + " --out " + (d / "one"));
  ASSERT_EQ(single.exit_code, 0) << single.err;
  // Open MPI refuses root unless told; CI runs as root.
  const std::string command = "cd '" CODESIM_SOURCE_DIR
                              "' && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
                              "mpirun -np 2 --oversubscribe '" CODESIM_BINARY "' sweep " +
                              kSweep + " --out '" + (d / "two") + "' >/dev/null 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0);
  EXPECT_EQ(read_file(d / "two/results.json"), read_file(d / "one/results.json"));
  EXPECT_EQ(read_file(d / "two/results.csv"), read_file(d / "one/results.csv"));
}

}  // namespace
}  // namespace codesim::testing
