// SVG chart drawing: axes with round ticks, bars or lines, a legend.
#include "sim/report/svg_chart.hpp"

#include <algorithm>
#include <cmath>

#include "sim/report/format.hpp"

namespace codesim::report {
namespace {

constexpr double kWidth = 760;
constexpr double kHeight = 340;
constexpr double kLeft = 70;    // room for the y ticks
constexpr double kRight = 170;  // room for the legend
constexpr double kTop = 20;
constexpr double kBottom = 60;  // room for the category labels
constexpr double kPlotW = kWidth - kLeft - kRight;
constexpr double kPlotH = kHeight - kTop - kBottom;

const char* const kPalette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};

std::string num(double v) {
  return fixed(v, 1);
}

std::string frame_and_labels(const Chart& c);

// Frame, y grid and ticks, y label, category labels; returns the y scale's top.
std::string axes(const Chart& c, double data_top, double& top) {
  const double step = data_top > 0 ? tick_step(data_top) : 1;
  top = std::ceil(data_top / step - 1e-9) * step;
  if (top <= 0) {
    top = step;
  }
  std::string out;
  for (double v = 0; v <= top + step * 1e-6; v += step) {
    const double y = kTop + kPlotH * (1 - v / top);
    out += "<line x1=\"" + num(kLeft) + "\" y1=\"" + num(y) + "\" x2=\"" + num(kLeft + kPlotW) +
           "\" y2=\"" + num(y) + "\" stroke=\"#ddd\"/>";
    out += "<text x=\"" + num(kLeft - 6) + "\" y=\"" + num(y + 4) +
           "\" text-anchor=\"end\" font-size=\"11\">" + tick_label(v, step) + "</text>";
  }
  return out + frame_and_labels(c);
}

// The bottom frame line, the y label, the category labels and the x label.
std::string frame_and_labels(const Chart& c) {
  std::string out = "<line x1=\"" + num(kLeft) + "\" y1=\"" + num(kTop + kPlotH) + "\" x2=\"" +
                    num(kLeft + kPlotW) + "\" y2=\"" + num(kTop + kPlotH) + "\" stroke=\"#333\"/>";
  out += "<text transform=\"translate(14 " + num(kTop + kPlotH / 2) +
         ") rotate(-90)\" text-anchor=\"middle\" font-size=\"12\">" + escape_xml(c.y_label) +
         "</text>";
  const double slot = kPlotW / static_cast<double>(std::max<std::size_t>(1, c.categories.size()));
  for (std::size_t i = 0; i < c.categories.size(); ++i) {
    const double x = kLeft + slot * (static_cast<double>(i) + 0.5);
    out += "<text x=\"" + num(x) + "\" y=\"" + num(kTop + kPlotH + 16) +
           "\" text-anchor=\"middle\" font-size=\"11\">" + escape_xml(c.categories[i]) + "</text>";
  }
  if (!c.x_label.empty()) {
    out += "<text class=\"x-label\" x=\"" + num(kLeft + kPlotW / 2) + "\" y=\"" +
           num(kTop + kPlotH + 40) + "\" text-anchor=\"middle\" font-size=\"12\">" +
           escape_xml(c.x_label) + "</text>";
  }
  return out;
}

std::string legend(const Chart& c) {
  std::string out;
  for (std::size_t i = 0; i < c.series.size(); ++i) {
    const double y = kTop + 18 * static_cast<double>(i);
    out += "<rect x=\"" + num(kWidth - kRight + 16) + "\" y=\"" + num(y) +
           "\" width=\"12\" height=\"12\" fill=\"" + series_color(i) + "\"/>";
    out += "<text x=\"" + num(kWidth - kRight + 34) + "\" y=\"" + num(y + 10) +
           "\" font-size=\"12\">" + escape_xml(c.series[i].name) + "</text>";
  }
  return out;
}

std::string open_svg(const Chart& c) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(kWidth) + "\" height=\"" +
         num(kHeight) + "\" viewBox=\"0 0 " + num(kWidth) + " " + num(kHeight) +
         "\" role=\"img\" font-family=\"sans-serif\"><title>" + escape_xml(c.title) + "</title>";
}

double value_at(const Series& s, std::size_t i) {
  return i < s.values.size() && std::isfinite(s.values[i]) ? s.values[i] : 0.0;
}

}  // namespace

double tick_step(double top) {
  const double raw = top / 5;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0}) {
    if (m * power >= raw) {
      return m * power;
    }
  }
  return 10 * power;
}

std::string tick_label(double v, double step) {
  static const char* const kSuffix[] = {"", "k", "M", "G", "T", "P"};
  int k = 0;
  double scaled = v;
  double scaled_step = step;
  while (std::abs(scaled_step) >= 1000 && k < 5) {
    scaled /= 1000;
    scaled_step /= 1000;
    ++k;
  }
  const int digits = scaled_step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(scaled_step)));
  return fixed(scaled, digits) + kSuffix[k];
}

std::string series_color(std::size_t i) {
  return kPalette[i % (sizeof(kPalette) / sizeof(kPalette[0]))];
}

std::string escape_xml(const std::string& text) {
  std::string out;
  for (const char ch : text) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

std::string stacked_bars_svg(const Chart& c) {
  double data_top = 0;
  for (std::size_t i = 0; i < c.categories.size(); ++i) {
    double total = 0;
    for (const auto& s : c.series) {
      total += std::max(0.0, value_at(s, i));
    }
    data_top = std::max(data_top, total);
  }
  double top = 1;
  std::string out = open_svg(c) + axes(c, data_top, top);
  const double slot = kPlotW / static_cast<double>(std::max<std::size_t>(1, c.categories.size()));
  const double bar = std::min(60.0, slot * 0.6);
  for (std::size_t i = 0; i < c.categories.size(); ++i) {
    const double x = kLeft + slot * (static_cast<double>(i) + 0.5) - bar / 2;
    double base = 0;
    for (std::size_t k = 0; k < c.series.size(); ++k) {
      const double v = std::max(0.0, value_at(c.series[k], i));
      if (v <= 0) {
        continue;
      }
      const double y0 = kTop + kPlotH * (1 - base / top);
      const double y1 = kTop + kPlotH * (1 - (base + v) / top);
      out += "<rect class=\"bar\" x=\"" + num(x) + "\" y=\"" + num(y1) + "\" width=\"" + num(bar) +
             "\" height=\"" + num(y0 - y1) + "\" fill=\"" + series_color(k) + "\"><title>" +
             escape_xml(c.categories[i] + ", " + c.series[k].name + ": ") +
             tick_label(v, v / 1000) + "</title></rect>";
      base += v;
    }
  }
  return out + legend(c) + "</svg>";
}

std::string lines_svg(const Chart& c) {
  double data_top = 0;
  for (const auto& s : c.series) {
    for (std::size_t i = 0; i < c.categories.size(); ++i) {
      data_top = std::max(data_top, value_at(s, i));
    }
  }
  double top = 1;
  std::string out = open_svg(c) + axes(c, data_top, top);
  const double slot = kPlotW / static_cast<double>(std::max<std::size_t>(1, c.categories.size()));
  for (std::size_t k = 0; k < c.series.size(); ++k) {
    std::string points;
    std::string marks;
    for (std::size_t i = 0; i < c.categories.size(); ++i) {
      const double x = kLeft + slot * (static_cast<double>(i) + 0.5);
      const double y = kTop + kPlotH * (1 - value_at(c.series[k], i) / top);
      points += (i == 0 ? "" : " ") + num(x) + "," + num(y);
      marks += "<circle class=\"point\" cx=\"" + num(x) + "\" cy=\"" + num(y) +
               "\" r=\"4\" fill=\"" + series_color(k) + "\"/>";
    }
    out += "<polyline class=\"line\" points=\"" + points + "\" fill=\"none\" stroke=\"" +
           series_color(k) + "\" stroke-width=\"2.5\"/>" + marks;
  }
  return out + legend(c) + "</svg>";
}

std::string signed_bars_svg(const Chart& c) {
  double extent = 0;
  for (const auto& s : c.series) {
    for (std::size_t i = 0; i < c.categories.size(); ++i) {
      extent = std::max(extent, std::abs(value_at(s, i)));
    }
  }
  const double step = extent > 0 ? tick_step(extent) : 1;
  const double top = std::max(step, std::ceil(extent / step - 1e-9) * step);
  // The plot spans [-top, top]; zero in the middle.
  const auto y_of = [&](double v) { return kTop + kPlotH * (0.5 - v / (2 * top)); };
  std::string out = open_svg(c);
  for (double v = -top; v <= top + step * 1e-6; v += step) {
    out += "<line x1=\"" + num(kLeft) + "\" y1=\"" + num(y_of(v)) + "\" x2=\"" +
           num(kLeft + kPlotW) + "\" y2=\"" + num(y_of(v)) + "\" stroke=\"" +
           (std::abs(v) < step * 1e-6 ? "#333" : "#ddd") + "\"/>";
    out += "<text x=\"" + num(kLeft - 6) + "\" y=\"" + num(y_of(v) + 4) +
           "\" text-anchor=\"end\" font-size=\"11\">" + tick_label(v, step) + "</text>";
  }
  out += frame_and_labels(c);
  const double slot = kPlotW / static_cast<double>(std::max<std::size_t>(1, c.categories.size()));
  const double bar =
      std::min(40.0, slot * 0.8 / static_cast<double>(std::max<std::size_t>(1, c.series.size())));
  for (std::size_t i = 0; i < c.categories.size(); ++i) {
    for (std::size_t k = 0; k < c.series.size(); ++k) {
      const double v = value_at(c.series[k], i);
      const double x = kLeft + slot * (static_cast<double>(i) + 0.5) +
                       bar * (static_cast<double>(k) - static_cast<double>(c.series.size()) / 2);
      const double y0 = y_of(std::max(0.0, v));
      const double y1 = y_of(std::min(0.0, v));
      out += "<rect class=\"diff\" x=\"" + num(x) + "\" y=\"" + num(y0) + "\" width=\"" + num(bar) +
             "\" height=\"" + num(std::max(0.5, y1 - y0)) + "\" fill=\"" + series_color(k) +
             "\"><title>" +
             escape_xml(c.categories[i] + ", " + c.series[k].name + ": " + fixed(v, 2)) +
             "</title></rect>";
    }
  }
  return out + legend(c) + "</svg>";
}

std::vector<std::size_t> pareto_front(const std::vector<ScatterPoint>& points) {
  std::vector<std::size_t> order(points.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    order[i] = i;
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return points[a].x != points[b].x ? points[a].x < points[b].x : points[a].y > points[b].y;
  });
  std::vector<std::size_t> front;
  double best = -1;
  for (const std::size_t i : order) {
    if (points[i].y > best) {
      front.push_back(i);
      best = points[i].y;
    }
  }
  return front;
}

std::string scatter_svg(const Scatter& c) {
  double x_top = 0;
  double y_top = 0;
  for (const auto& p : c.points) {
    x_top = std::max(x_top, p.x);
    y_top = std::max(y_top, p.y);
  }
  const double x_step = x_top > 0 ? tick_step(x_top) : 1;
  const double y_step = y_top > 0 ? tick_step(y_top) : 1;
  const double x_max = std::max(x_step, std::ceil(x_top / x_step - 1e-9) * x_step);
  const double y_max = std::max(y_step, std::ceil(y_top / y_step - 1e-9) * y_step);
  auto px = [&](double x) { return kLeft + kPlotW * x / x_max; };
  auto py = [&](double y) { return kTop + kPlotH * (1 - y / y_max); };
  std::string out = open_svg(Chart{.title = c.title});
  for (double v = 0; v <= y_max + y_step * 1e-6; v += y_step) {
    out += "<line x1=\"" + num(kLeft) + "\" y1=\"" + num(py(v)) + "\" x2=\"" +
           num(kLeft + kPlotW) + "\" y2=\"" + num(py(v)) + "\" stroke=\"#ddd\"/>";
    out += "<text x=\"" + num(kLeft - 6) + "\" y=\"" + num(py(v) + 4) +
           "\" text-anchor=\"end\" font-size=\"11\">" + tick_label(v, y_step) + "</text>";
  }
  for (double v = 0; v <= x_max + x_step * 1e-6; v += x_step) {
    out += "<text x=\"" + num(px(v)) + "\" y=\"" + num(kTop + kPlotH + 16) +
           "\" text-anchor=\"middle\" font-size=\"11\">" + tick_label(v, x_step) + "</text>";
  }
  out += "<line x1=\"" + num(kLeft) + "\" y1=\"" + num(kTop + kPlotH) + "\" x2=\"" +
         num(kLeft + kPlotW) + "\" y2=\"" + num(kTop + kPlotH) + "\" stroke=\"#333\"/>";
  out += "<text transform=\"translate(14 " + num(kTop + kPlotH / 2) +
         ") rotate(-90)\" text-anchor=\"middle\" font-size=\"12\">" + escape_xml(c.y_label) +
         "</text>";
  out += "<text class=\"x-label\" x=\"" + num(kLeft + kPlotW / 2) + "\" y=\"" +
         num(kTop + kPlotH + 40) + "\" text-anchor=\"middle\" font-size=\"12\">" +
         escape_xml(c.x_label) + "</text>";
  const auto front = pareto_front(c.points);
  std::string line;
  for (const std::size_t i : front) {
    line += (line.empty() ? "" : " ") + num(px(c.points[i].x)) + "," + num(py(c.points[i].y));
  }
  out += "<polyline class=\"pareto\" points=\"" + line + "\" fill=\"none\" stroke=\"" +
         series_color(1) + "\" stroke-width=\"2\"/>";
  for (std::size_t i = 0; i < c.points.size(); ++i) {
    const bool on_front = std::find(front.begin(), front.end(), i) != front.end();
    const auto& p = c.points[i];
    out += "<circle class=\"" + std::string(on_front ? "point front" : "point") + "\" cx=\"" +
           num(px(p.x)) + "\" cy=\"" + num(py(p.y)) + "\" r=\"" + (on_front ? "5" : "3.5") +
           "\" fill=\"" + (p.marked ? "none" : series_color(on_front ? 1 : 0)) + "\" stroke=\"" +
           series_color(on_front ? 1 : 0) + "\" stroke-width=\"2\"><title>" +
           escape_xml(p.label) + "</title></circle>";
  }
  return out + "</svg>";
}

}  // namespace codesim::report
