// The run, inference and sweep pages rendered by headless Chromium and checked for what they must
// show: the replayed step's timeline, an inference step's pieces, a sweep's labelled axes and its
// differences view. Slow (a browser): label "slow".
#include <gtest/gtest.h>

#include "tests/support/chromium.hpp"
#include "tests/support/count.hpp"
#include "tests/support/run_cli.hpp"
#include "tests/support/temp_dir.hpp"

namespace codesim::testing {
namespace {

// Colours the pages promise (report/svg_chart.cpp's palette, report/timeline_svg.cpp).
constexpr std::uint32_t kForward = 0x4e79a7;          // F chunks, 1F
constexpr std::uint32_t kForwardBackward = 0x76b7b2;  // F&B chunks, 1F1B
constexpr std::uint32_t kExpertParallel = 0xb07aa1;   // EP transfers
constexpr std::uint32_t kExposed = 0x222222;          // exposed communication

TEST(RunPage, TheTimelineShowsEveryRanksLanes) {
  const TempDir d("run_html");
  const auto r = run_codesim("run tests/scenarios/small-step.yaml --format html");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string page = d / "run.html";
  write_file(page, r.out);
  EXPECT_EQ(count_of(r.out, "<svg"), 2);  // the breakdown and the timeline
  for (const char* rank : {">rank 0<", ">rank 1<", ">rank 2<", ">rank 3<"}) {
    EXPECT_EQ(count_of(r.out, rank), 1) << rank;
  }
  // DualPipe on 4 ranks with 8 micro-batches: overlapped pairs on every rank, each with its times.
  EXPECT_GE(count_of(r.out, "<title>F&amp;B "), 4);
  EXPECT_GE(count_of(r.out, "<title>exposed EP "), 1);
  const std::string shot = d / "run.png";
  ASSERT_TRUE(screenshot(page, shot)) << "chromium failed (tools/setup.sh --test installs it)";
  const auto histogram = colour_histogram(shot);
  EXPECT_GT(pixels_of(histogram, kForward), 1000);
  EXPECT_GT(pixels_of(histogram, kForwardBackward), 1000);
  EXPECT_GT(pixels_of(histogram, kExpertParallel), 200);
  EXPECT_GT(pixels_of(histogram, kExposed), 50);
}

TEST(InferencePage, ShowsTheStepsPiecesAndFigures) {
  const TempDir d("decode_html");
  const auto r = run_codesim(
      "run scenarios/deepseek-v3-decode-h800.yaml --set hardware.nodes=8 --set parallelism.ep=64 "
      "--set inference.redundant_experts=0 --set routing.balance_steps=10 --format html");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string page = d / "decode.html";
  write_file(page, r.out);
  EXPECT_NE(r.out.find("TPOT "), std::string::npos);
  EXPECT_EQ(count_of(r.out, "<rect class=\"bar\""),
            5);  // attention, FFN, experts, dispatch, combine
  EXPECT_NE(r.out.find("<td>TPOT (ms)</td>"), std::string::npos);
  const std::string shot = d / "decode.png";
  ASSERT_TRUE(screenshot(page, shot)) << "chromium failed (tools/setup.sh --test installs it)";
  const auto histogram = colour_histogram(shot);
  EXPECT_GT(inked_share(histogram), 0.03);
  EXPECT_GT(pixels_of(histogram, kForward), 1000);  // the pieces' bars
}

TEST(SweepPage, NearlyEqualPointsGetTheirDifferencesAndNamedAxes) {
  const TempDir d("near_sweep");
  const std::string scenario = d / "near.yaml";
  // NIC latencies of 2.8 and 4 us differ by a few percent on the small step.
  write_file(scenario, "name: near\ninclude: " CODESIM_SOURCE_DIR
                       "/tests/scenarios/small-step.yaml\nsweep:\n  hardware.nic_latency: [2.8us, "
                       "4us]\n");
  const auto r = run_codesim("sweep '" + scenario + "' --out '" + (d / "out") + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string html = read_file(d / "out/report.html");
  // Every chart's x axis names the swept key: breakdown, tokens/day, MFU, cost, differences.
  EXPECT_EQ(count_of(html, "<text class=\"x-label\""), 5);
  EXPECT_EQ(count_of(html, ">hardware.nic_latency</text>"), 5);
  EXPECT_NE(html.find("Differences against point 0"), std::string::npos);
  EXPECT_EQ(count_of(html, "<rect class=\"diff\""), 4);  // 2 points x (step, tokens/day)
  const std::string shot = d / "sweep.png";
  ASSERT_TRUE(screenshot(d / "out/report.html", shot, 1100, 3000));
  const auto histogram = colour_histogram(shot);
  EXPECT_GT(pixels_of(histogram, 0x4e79a7), 2000);  // step-time change, and the 1F bars
  EXPECT_GT(pixels_of(histogram, 0xf28e2b), 500);   // tokens/day change, and the 1B bars
}

TEST(SearchPage, ShowsTheParetoFrontTheBestBreakdownsAndTheRejected) {
  // The small search: four kept configurations on the cost/throughput plane (one network here,
  // so one cost: the front is the best of them), the best two's breakdowns, pp 3 rejected.
  const TempDir d("search_html");
  const auto r = run_codesim("search tests/scenarios/small-search.yaml --out " + (d / "out"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string page = read_file(d / "out/report.html");
  EXPECT_EQ(count_of(page, "<svg"), 2);  // the front and the breakdowns
  EXPECT_EQ(count_of(page, "class=\"point front\""), 1);
  EXPECT_EQ(count_of(page, ">network cost (USD)<"), 1);
  EXPECT_EQ(count_of(page, "<h2>Rejected</h2>"), 1);
  EXPECT_NE(page.find("pp x tp x cp = 3 x 1 x 1 = 3 GPUs per data-parallel replica"), std::string::npos);
  const std::string shot = d / "search.png";
  ASSERT_TRUE(screenshot(d / "out/report.html", shot, 1100, 2000));
  const auto histogram = colour_histogram(shot);
  EXPECT_GT(pixels_of(histogram, kForward), 1000);          // the points, the 1F bars
  EXPECT_GT(pixels_of(histogram, kForwardBackward), 1000);  // the 1F1B bars
}

TEST(ComparePage, ShowsTheFrontCostsStepsBusiestLinksAndFiles) {
  // MPFT against MRFT on the small step: two proposals on the cost/throughput plane, each one's
  // cost per endpoint, step-time bars, busiest links and link tiers, both scenario files.
  const TempDir d("compare_html");
  const auto r = run_codesim(
      "compare tests/scenarios/small-step.yaml tests/scenarios/small-step-mrft.yaml --format html");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string page = d / "compare.html";
  write_file(page, r.out);
  EXPECT_EQ(count_of(r.out, "<svg"), 3);  // the front, cost per endpoint, step time
  EXPECT_EQ(count_of(r.out, "<circle class=\"point"), 2);
  EXPECT_EQ(count_of(r.out, ">USD per endpoint<"), 1);
  EXPECT_EQ(count_of(r.out, "<h3>small-step (mpft, tests/scenarios/small-step.yaml)</h3>"), 1);
  EXPECT_EQ(count_of(r.out, "# tests/scenarios/small-step-mrft.yaml"), 1);
  // Each proposal's link tiers; only MRFT's rails meet at spines.
  EXPECT_EQ(count_of(r.out, "<th>link tier</th>"), 2);
  EXPECT_EQ(count_of(r.out, "<td>ib leaf -&gt; spine</td>"), 1);
  const std::string shot = d / "compare.png";
  ASSERT_TRUE(screenshot(page, shot, 1100, 2400));
  const auto histogram = colour_histogram(shot);
  EXPECT_GT(pixels_of(histogram, kForward), 1000);          // points, cost bars, 1F bars
  EXPECT_GT(pixels_of(histogram, kForwardBackward), 1000);  // the F&B bars
}

}  // namespace
}  // namespace codesim::testing
