// Report writers: CSV quoting, Markdown, and what the SVG
// charts and HTML pages contain.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>

#include "sim/report/csv.hpp"
#include "sim/report/frame.hpp"
#include "sim/report/html_report.hpp"
#include "sim/report/markdown.hpp"
#include "sim/report/run_report.hpp"
#include "sim/report/svg_chart.hpp"
#include "sim/report/sweep_report.hpp"
#include "sim/report/timeline_svg.hpp"
#include "tests/support/count.hpp"

namespace codesim::report {
namespace {

using codesim::testing::count_of;
using core::Bytes;
using core::Seconds;

metrics::RunResult sample() {
  metrics::RunResult r;
  r.scenario = "probe";
  r.network = {"mpft", 2048, 320, 8192, 12.5e6};
  r.step_time = Seconds(10);
  r.breakdown = {Seconds(1), Seconds(2), Seconds(0.5), Seconds(5), Seconds(1), Seconds(0.5)};
  r.tokens_per_step = 1e6;
  r.tokens_per_day = 8.64e9;
  r.tflops_causal = 300;
  r.tflops_noncausal = 330;
  r.mfu_causal = 0.3;
  r.mfu_noncausal = 0.33;
  r.exposed_comm = {{metrics::CommGroup::dp, Seconds(0.25)},
                    {metrics::CommGroup::ep, Seconds(0.125)},
                    {metrics::CommGroup::pp, Seconds(0)}};
  r.compute_busy = Seconds(8);
  r.median_pair = Seconds(0.125);
  r.pairs_measured = 12;
  r.ib_bytes_per_gpu = Bytes(1.5e10);
  r.busiest_links = {{"ib nic_n0_0 -> leaf0", Bytes(2e9), 0.5, Seconds(5), 0.8}};
  r.tiers = {{"ib nic -> leaf", 2048, 1152, Bytes(2.5e12), 0.25, 0.5, 0.8}};
  r.memory = {Bytes(10e9), Bytes(2e9), Bytes(4e9), Bytes(30e9), 3, Bytes(80e9)};
  r.placement = {"embedding + 0-3", "4-7"};
  r.notes = {{core::NoteKind::fitted, "piece times"},
             {core::NoteKind::folded, "one replica"},
             {core::NoteKind::estimated, "activations"}};
  return r;
}

TEST(RunReport, TheTableShowsTheBusiestLinksAndEachLinkTier) {
  // 2e9 bytes = 2.0 GB, 2.5e12 bytes = 2.50 TB; utilizations in percent.
  const std::string table = run_table(sample());
  EXPECT_NE(table.find("busiest links          GB  utilization  in flight (s)  while in flight\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("ib nic_n0_0 -> leaf0  2.0        50.0%          5.000            80.0%\n"),
            std::string::npos)
      << table;
  EXPECT_NE(
      table.find("link tier       links  used    TB  mean utilization  highest  while in flight\n"),
      std::string::npos)
      << table;
  EXPECT_NE(
      table.find("ib nic -> leaf   2048  1152  2.50             25.0%    50.0%            80.0%\n"),
      std::string::npos)
      << table;
}

TEST(RunReport, CsvHasAHeaderAndOneRow) {
  const std::string csv = frame_csv(run_frame(sample()));
  EXPECT_EQ(count_of(csv, "\r\n"), 2);
  EXPECT_EQ(csv.rfind("scenario,step_time_s,tokens_per_day,", 0), 0u);
  // Network cost per (token/day): 12.5e6 $ / 8.64e9 tokens/day.
  EXPECT_NE(csv.find("probe,10,8.64e+09,300,0.3,0.33,1,2,0.5,5,1,0.5,0.125,0,0.25,0,0,0.125,"),
            std::string::npos);
}

metrics::SweepResult sweep() {
  metrics::SweepResult s{
      "probe", core::SweepMode::cartesian, {"routing.node_limit", "parallelism.ep"}, {}};
  s.points.push_back({{"1", "[a, b]"}, sample(), ""});
  s.points.push_back({{"2", "x|y"}, std::nullopt, "does not fit, \"really\""});
  return s;
}

TEST(SweepReport, CsvQuotesCommasAndQuotes) {
  const std::string csv = frame_csv(sweep_frame(sweep()));
  EXPECT_EQ(csv.rfind("point,routing.node_limit,parallelism.ep,step_time_s,", 0), 0u);
  EXPECT_NE(csv.find("\r\n0,1,\"[a, b]\",10,"), std::string::npos);
  // A failed point: its values, every step column empty, the error quoted.
  const std::string empty_columns(22, ',');
  EXPECT_NE(csv.find("\r\n1,2,x|y," + empty_columns + "\"does not fit, \"\"really\"\"\"\r\n"),
            std::string::npos)
      << csv;
}

TEST(SweepReport, TheFrameTypesEachCell) {
  // What Python's DataFrame gets: the point a count, swept values as written, figures as
  // numbers, a failed point's figures empty; the same columns as the CSV's header.
  const Frame f = sweep_frame(sweep());
  ASSERT_EQ(f.rows.size(), 2u);
  EXPECT_EQ(f.columns.at(3), "step_time_s");
  EXPECT_EQ(std::get<long long>(f.rows[1][0]), 1);
  EXPECT_EQ(std::get<std::string>(f.rows[0][1]), "1");
  EXPECT_EQ(std::get<double>(f.rows[0][3]), 10);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(f.rows[1][3]));
  EXPECT_EQ(std::get<std::string>(f.rows[1].back()), "does not fit, \"really\"");
  EXPECT_EQ(frame_csv(f).rfind(csv_row(f.columns), 0), 0u);
}

TEST(SweepReport, JsonHasEveryPointAndNullForFailures) {
  const auto j = sweep_json(sweep());
  EXPECT_EQ(j["schema_version"], 1);
  ASSERT_EQ(j["points"].size(), 2u);
  EXPECT_EQ(j["points"][0]["values"]["parallelism.ep"], "[a, b]");
  EXPECT_DOUBLE_EQ(j["points"][0]["result"]["step_time_s"].get<double>(), 10);
  EXPECT_TRUE(j["points"][1]["result"].is_null());
}

TEST(SweepReport, MarkdownEscapesPipes) {
  const std::string md = sweep_markdown(sweep());
  EXPECT_NE(md.find("| 1 | 2 | x\\|y |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 0 | 1 | [a, b] | 10.000 | 8.6 | 30.0 | 12.50 |  |"), std::string::npos)
      << md;
}

TEST(SvgChart, StackedBarsDrawOneRectPerNonZeroSegment) {
  const Chart c{"t", {"a", "b"}, {{"x", {1, 2}}, {"y", {0, 3}}, {"z", {4, 5}}}, "s"};
  const std::string svg = stacked_bars_svg(c);
  EXPECT_EQ(count_of(svg, "<rect class=\"bar\""), 5);  // a has no y
  // The tallest bar (b: 2 + 3 + 5 = 10) reaches the top tick, 10, at 2-unit steps.
  EXPECT_NE(svg.find(">10</text>"), std::string::npos);
  EXPECT_NE(svg.find(">8</text>"), std::string::npos);
  EXPECT_EQ(count_of(svg, "<text"), 6 + 2 + 1 + 3);  // ticks 0..10, categories, y label, legend
}

TEST(SvgChart, LinesDrawOnePolylinePerSeries) {
  const Chart c{"t", {"1", "2", "4"}, {{"x", {1e9, 2e9, 3e9}}, {"y", {1e9, 1e9, 1e9}}}, "tokens"};
  const std::string svg = lines_svg(c);
  EXPECT_EQ(count_of(svg, "<polyline"), 2);
  EXPECT_EQ(count_of(svg, "<circle"), 6);
  EXPECT_NE(svg.find(">3G</text>"), std::string::npos);  // large values in G
}

TEST(SvgChart, EscapesText) {
  EXPECT_EQ(escape_xml("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;");
}

TEST(HtmlReport, SelfContainedWithChartsScenarioAndVersion) {
  const std::string run = run_html(sample(), {"name: <probe>\n", "codesim 9.9.9"});
  EXPECT_EQ(count_of(run, "<svg"), 1);
  EXPECT_EQ(count_of(run, "<script"), 0);
  EXPECT_EQ(count_of(run, "http"), 1);  // the SVG namespace only: nothing is fetched
  EXPECT_NE(run.find("name: &lt;probe&gt;"), std::string::npos);
  EXPECT_NE(run.find("codesim 9.9.9"), std::string::npos);
  EXPECT_NE(run.find("<li>fitted: piece times</li>"), std::string::npos);
  const std::string swept = sweep_html(sweep(), {"", "codesim 9.9.9"});
  EXPECT_EQ(count_of(swept, "<svg"), 4);  // breakdown, tokens/day, MFU, network cost
  EXPECT_NE(swept.find("does not fit"), std::string::npos);
}

TEST(HtmlReport, SweepPointsWithinFivePercentGetADifferencesView) {
  metrics::SweepResult s{"probe", core::SweepMode::cartesian, {"routing.node_limit"}, {}};
  metrics::RunResult faster = sample();
  faster.step_time = Seconds(9.6);  // 4% faster than the first point's 10 s
  s.points.push_back({{"1"}, sample(), ""});
  s.points.push_back({{"2"}, faster, ""});
  const std::string near = sweep_html(s, {"", "v"});
  EXPECT_NE(near.find("Differences against point 0"), std::string::npos);
  // Step time -4%: a bar from the zero line down, its tooltip the change.
  EXPECT_NE(near.find("<title>2, step time (%): -4.00</title>"), std::string::npos);
  EXPECT_EQ(count_of(near, "<text class=\"x-label\""), 5);
  s.points[1].result->step_time = Seconds(8);  // 20% apart: plain charts say it
  EXPECT_EQ(sweep_html(s, {"", "v"}).find("Differences against point 0"), std::string::npos);
}

TEST(Timeline, RanksLanesAndCoalescedTransfers) {
  using metrics::ChunkSpan;
  using metrics::CommGroup;
  metrics::RankLanes rank;
  rank.compute = {{Seconds(0), Seconds(4), ChunkSpan::forward},
                  {Seconds(4), Seconds(9), ChunkSpan::forward_backward}};
  // Three EP transfers 1 ms apart: at 10 s over 880 px, one pixel is 11 ms, so they draw as one.
  rank.comm = {{Seconds(1.000), Seconds(1.010), CommGroup::ep},
               {Seconds(1.011), Seconds(1.020), CommGroup::ep},
               {Seconds(1.021), Seconds(1.030), CommGroup::ep},
               {Seconds(6), Seconds(7), CommGroup::pp}};
  rank.exposed = {{Seconds(9), Seconds(9.5), CommGroup::dp}};
  const std::string svg = timeline_svg({rank, rank}, Seconds(10));
  EXPECT_EQ(count_of(svg, ">rank 1<"), 1);
  EXPECT_EQ(count_of(svg, "<title>F 0.0-4000.0 ms</title>"), 2);
  EXPECT_EQ(count_of(svg, "<title>F&amp;B 4000.0-9000.0 ms</title>"), 2);
  EXPECT_EQ(count_of(svg, "fill=\"#b07aa1\"/>"), 1 + 2);  // the legend, one EP rectangle per rank
  EXPECT_EQ(count_of(svg, "<title>exposed DP 500.00 ms</title>"), 2);
}

TEST(Timeline, ThePowerTrackStepsBetweenComputingAndWaiting) {
  // With a power model each rank's row gains its board power as a step line, computing_w over
  // each compute span and waiting_w between (two spans: 1 + 4 x 2 + 1 points), its clock under
  // its label, and the legend an entry; without one the page is as before.
  metrics::RankLanes rank;
  rank.compute = {{Seconds(0), Seconds(4), metrics::ChunkSpan::forward},
                  {Seconds(5), Seconds(9), metrics::ChunkSpan::backward}};
  EXPECT_EQ(count_of(timeline_svg({rank}, Seconds(10)), "<polyline"), 0);
  rank.power = {.clock_mhz = 1545, .computing_w = 690, .waiting_w = 120};
  const std::string svg = timeline_svg({rank, rank}, Seconds(10));
  EXPECT_EQ(count_of(svg, "<polyline"), 2);
  EXPECT_EQ(count_of(svg, ">1545 MHz</text>"), 2);
  EXPECT_EQ(count_of(svg,
                     "<title>board power: 690 W computing, 120 W waiting; SM clock 1545 "
                     "MHz</title>"),
            2);
  EXPECT_EQ(count_of(svg, ">board power</text>"), 1);
  const std::string first = svg.substr(svg.find("points=\"") + 8);
  EXPECT_EQ(std::count(first.begin(), first.begin() + first.find('"'), ','), 1 + 4 * 2 + 1);
}

TEST(Scatter, TheParetoFrontKeepsWhatNothingCheaperBeats) {
  // (cost, throughput): (1, 5) and (2, 7) and (4, 9) are each the best at their cost or below;
  // (3, 6) is beaten by (2, 7), (4, 8) by (4, 9), (5, 9) ties (4, 9) at a higher cost.
  const std::vector<ScatterPoint> points{{4, 8, "a"}, {1, 5, "b"}, {3, 6, "c"},
                                         {2, 7, "d"}, {5, 9, "e"}, {4, 9, "f"}};
  EXPECT_EQ(pareto_front(points), (std::vector<std::size_t>{1, 3, 5}));
  const std::string svg = scatter_svg({"t", "cost", "throughput", points});
  EXPECT_EQ(count_of(svg, "class=\"point front\""), 3);
  EXPECT_EQ(count_of(svg, "class=\"point\""), 3);
  EXPECT_EQ(count_of(svg, "<title>"), 7);  // the chart's and one per point
}

}  // namespace
}  // namespace codesim::report
