// Lanes -> rectangles on a shared time axis. Spans of a lane closer than a pixel are drawn as one
// (a full DeepSeek-V3 step has tens of thousands of transfers; the page stays small).
#include "sim/report/timeline_svg.hpp"

#include <algorithm>
#include <cmath>

#include "sim/report/format.hpp"
#include "sim/report/svg_chart.hpp"

namespace codesim::report {
namespace {
namespace timeline {  // unity builds: names apart from svg_chart.cpp's

constexpr double kWidth = 960;
constexpr double kLeft = 64;  // rank labels
constexpr double kRight = 16;
constexpr double kTop = 34;  // legend
constexpr double kPlotW = kWidth - kLeft - kRight;
constexpr double kCompute = 16;  // lane heights
constexpr double kComm = 7;
constexpr double kExposed = 3;
constexpr double kRow = kCompute + kComm + kExposed + 10;
constexpr double kPower = 12;  // the board-power track, when the run has a power model
const std::string kPowerColor = "#e15759";
constexpr double kMemory = 12;  // the memory track, when the lanes carry memory
const std::string kMemoryColor = "#4e79a7";
constexpr double kAxis = 30;

// Chunk colours are the breakdown chart's (series_color of 1F, 1B, 1W, 1F1B, -, opt).
struct Style {
  std::string name;
  std::string color;
};
const std::string kExposedColor = "#222222";

Style chunk_style(metrics::ChunkSpan k) {
  switch (k) {
    case metrics::ChunkSpan::forward:
      return {"F", series_color(0)};
    case metrics::ChunkSpan::backward:
      return {"B", series_color(1)};
    case metrics::ChunkSpan::weight:
      return {"W", series_color(2)};
    case metrics::ChunkSpan::forward_backward:
      return {"F&B", series_color(3)};
    case metrics::ChunkSpan::optimizer:
      return {"opt + DP", series_color(5)};
  }
  return {"?", "#000"};
}

Style comm_style(metrics::CommGroup g) {
  switch (g) {
    case metrics::CommGroup::ep:
      return {"EP", "#b07aa1"};
    case metrics::CommGroup::pp:
      return {"PP", "#ff9da7"};
    case metrics::CommGroup::dp:
      return {"DP", "#9c755f"};
    case metrics::CommGroup::tp:
      return {"TP", "#76b7b2"};
    case metrics::CommGroup::cp:
      return {"CP", "#edc948"};
  }
  return {"?", "#000"};
}

std::string num(double v) {
  return fixed(v, 1);
}

std::string rect(double x, double y, double w, double h, const std::string& color,
                 const std::string& title = {}) {
  std::string out = "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" +
                    fixed(std::max(w, 0.3), 2) + "\" height=\"" + num(h) + "\" fill=\"" + color +
                    "\"";
  return title.empty() ? out + "/>" : out + "><title>" + escape_xml(title) + "</title></rect>";
}

// Spans of one group, merged where they are less than `pixel` apart.
std::vector<metrics::CommSpan> coalesced(const std::vector<metrics::CommSpan>& spans,
                                         metrics::CommGroup g, core::Seconds pixel) {
  std::vector<metrics::CommSpan> out;
  for (const auto& s : spans) {
    if (s.group != g) {
      continue;
    }
    if (!out.empty() && s.start - out.back().end < pixel) {
      out.back().end = std::max(out.back().end, s.end);
    } else {
      out.push_back(s);
    }
  }
  return out;
}

std::string legend(bool power, bool memory) {
  std::string out;
  double x = kLeft;
  auto item = [&](const Style& s) {
    out += rect(x, 8, 12, 12, s.color) + "<text x=\"" + num(x + 16) +
           "\" y=\"18\" font-size=\"11\">" + escape_xml(s.name) + "</text>";
    x += 24 + 7.0 * static_cast<double>(s.name.size());
  };
  for (const auto k :
       {metrics::ChunkSpan::forward, metrics::ChunkSpan::backward, metrics::ChunkSpan::weight,
        metrics::ChunkSpan::forward_backward, metrics::ChunkSpan::optimizer}) {
    item(chunk_style(k));
  }
  for (const auto g : metrics::kCommGroups) {
    item(comm_style(g));
  }
  item({"exposed comm", kExposedColor});
  if (power) {
    item({"board power", kPowerColor});
  }
  if (memory) {
    item({"memory", kMemoryColor});
  }
  return out;
}

// The rank's memory as a step line under the lanes: its state and the activations it holds from
// each chunk's start (allocated) to its end (freed), scaled to `top` bytes over the track.
std::string memory_track(const metrics::RankLanes& lanes, double y, double step, double top) {
  const metrics::RankMemory& m = lanes.memory;
  const auto x_of = [&](core::Seconds t) { return kLeft + kPlotW * t.value / step; };
  const auto y_of = [&](double bytes) { return y + kMemory - kMemory * bytes / top; };
  double peak = m.state_bytes;
  double held = m.state_bytes;
  std::string points = num(kLeft) + "," + num(y_of(held));
  for (const metrics::MemoryStep& c : metrics::memory_steps(lanes)) {
    points += " " + num(x_of(c.start)) + "," + num(y_of(held)) + " " + num(x_of(c.start)) + "," +
              num(y_of(c.bytes_at_start)) + " " + num(x_of(c.end)) + "," +
              num(y_of(c.bytes_at_start)) + " " + num(x_of(c.end)) + "," +
              num(y_of(c.bytes_at_end));
    held = c.bytes_at_end;
    peak = std::max(peak, c.bytes_at_start);
  }
  points += " " + num(kLeft + kPlotW) + "," + num(y_of(held));
  return "<text x=\"" + num(kLeft - 6) + "\" y=\"" + num(y + kMemory - 2) +
         "\" text-anchor=\"end\" font-size=\"9\">" + fixed(peak / 1e9, 1) + " GB</text>" +
         "<polyline fill=\"none\" stroke=\"" + kMemoryColor + "\" stroke-width=\"1\" points=\"" +
         points + "\"><title>memory: " + fixed(m.state_bytes / 1e9, 1) + " GB of state, " +
         fixed(peak / 1e9, 1) + " GB at the peak of its chunks' activations</title></polyline>";
}

std::string time_axis(double step, double height) {
  const double tick = tick_step(step);
  std::string out;
  for (double t = 0; t <= step + tick * 1e-6; t += tick) {
    const double x = kLeft + kPlotW * t / step;
    out += "<line x1=\"" + num(x) + "\" y1=\"" + num(kTop) + "\" x2=\"" + num(x) + "\" y2=\"" +
           num(height - kAxis + 4) + "\" stroke=\"#e4e4e4\"/>";
    out += "<text x=\"" + num(x) + "\" y=\"" + num(height - kAxis + 16) +
           "\" text-anchor=\"middle\" font-size=\"11\">" + tick_label(t, tick) + "</text>";
  }
  return out + "<text x=\"" + num(kLeft + kPlotW / 2) + "\" y=\"" + num(height - 2) +
         "\" text-anchor=\"middle\" font-size=\"12\">seconds</text>";
}

// The board's power as a step line under the lanes: computing_w over each compute span, waiting_w
// between, scaled to `top_w` over the track's height; the rank's clock written under its label.
std::string power_track(const metrics::RankLanes& lanes, double y, double step, double top_w) {
  const metrics::RankPower& p = lanes.power;
  const auto x_of = [&](core::Seconds t) { return kLeft + kPlotW * t.value / step; };
  const auto y_of = [&](double w) { return y + kPower - kPower * w / top_w; };
  std::string points = num(kLeft) + "," + num(y_of(p.waiting_w));
  for (const auto& c : lanes.compute) {
    points += " " + num(x_of(c.start)) + "," + num(y_of(p.waiting_w)) + " " + num(x_of(c.start)) +
              "," + num(y_of(p.computing_w)) + " " + num(x_of(c.end)) + "," +
              num(y_of(p.computing_w)) + " " + num(x_of(c.end)) + "," + num(y_of(p.waiting_w));
  }
  points += " " + num(kLeft + kPlotW) + "," + num(y_of(p.waiting_w));
  return "<text x=\"" + num(kLeft - 6) + "\" y=\"" + num(y + kPower - 2) +
         "\" text-anchor=\"end\" font-size=\"9\">" + fixed(p.clock_mhz, 0) + " MHz</text>" +
         "<polyline fill=\"none\" stroke=\"" + kPowerColor + "\" stroke-width=\"1\" points=\"" +
         points + "\"><title>board power: " + fixed(p.computing_w, 0) + " W computing, " +
         fixed(p.waiting_w, 0) + " W waiting; SM clock " + fixed(p.clock_mhz, 0) +
         " MHz</title></polyline>";
}

std::string rank_row(const metrics::RankLanes& lanes, std::size_t rank, double step, double row,
                     double top_w, double top_bytes) {
  const double y = kTop + row * static_cast<double>(rank);
  const auto x_of = [&](core::Seconds t) { return kLeft + kPlotW * t.value / step; };
  const core::Seconds pixel(step / kPlotW);
  std::string out = "<text x=\"" + num(kLeft - 6) + "\" y=\"" + num(y + kCompute - 3) +
                    "\" text-anchor=\"end\" font-size=\"11\">rank " + std::to_string(rank) +
                    "</text>";
  const double under = y + kCompute + kComm + kExposed + 4;
  if (top_w > 0) {
    out += power_track(lanes, under, step, top_w);
  }
  if (top_bytes > 0) {
    out += memory_track(lanes, under + (top_w > 0 ? kPower : 0), step, top_bytes);
  }
  for (const auto& c : lanes.compute) {
    const Style s = chunk_style(c.kind);
    out += rect(
        x_of(c.start), y, x_of(c.end) - x_of(c.start), kCompute, s.color,
        s.name + " " + fixed(c.start.value * 1e3, 1) + "-" + fixed(c.end.value * 1e3, 1) + " ms");
  }
  for (const auto g : metrics::kCommGroups) {
    for (const auto& c : coalesced(lanes.comm, g, pixel)) {
      out += rect(x_of(c.start), y + kCompute + 1, x_of(c.end) - x_of(c.start), kComm,
                  comm_style(g).color);
    }
    for (const auto& e : coalesced(lanes.exposed, g, pixel)) {
      out += rect(
          x_of(e.start), y + kCompute + kComm + 1, x_of(e.end) - x_of(e.start), kExposed,
          kExposedColor,
          "exposed " + comm_style(g).name + " " + fixed((e.end - e.start).value * 1e3, 2) + " ms");
    }
  }
  return out;
}

std::string draw(const std::vector<metrics::RankLanes>& ranks, core::Seconds step) {
  const double total = step.value > 0 ? step.value : 1;
  double top_w = 0;
  double top_bytes = 0;
  for (const auto& r : ranks) {
    top_w = std::max(top_w, r.power.computing_w);
    for (const metrics::MemoryStep& c : metrics::memory_steps(r)) {
      top_bytes = std::max(top_bytes, c.bytes_at_start);
    }
  }
  const double row = kRow + (top_w > 0 ? kPower : 0) + (top_bytes > 0 ? kMemory : 0);
  const double height = kTop + row * static_cast<double>(ranks.size()) + kAxis;
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(kWidth) +
                    "\" height=\"" + num(height) + "\" viewBox=\"0 0 " + num(kWidth) + " " +
                    num(height) + "\" role=\"img\" font-family=\"sans-serif\">" +
                    "<title>replayed step per pipeline rank</title>";
  out += legend(top_w > 0, top_bytes > 0) + time_axis(total, height);
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    out += rank_row(ranks[r], r, total, row, top_w, top_bytes);
  }
  return out + "</svg>";
}

}  // namespace timeline
}  // namespace

std::string timeline_svg(const std::vector<metrics::RankLanes>& ranks, core::Seconds step) {
  return timeline::draw(ranks, step);
}

}  // namespace codesim::report
