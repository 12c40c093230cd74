// Inline SVG charts for the HTML report: no scripts, no external resources, deterministic text.
#pragma once

#include <string>
#include <vector>

namespace codesim::report {

struct Series {
  std::string name;
  std::vector<double> values;  // one per category
};

struct Chart {
  std::string title;                    // the SVG's <title>, for screen readers
  std::vector<std::string> categories;  // x axis, in order
  std::vector<Series> series;
  std::string y_label;  // with its unit: "seconds"
  std::string x_label;  // what the categories are: a sweep's varied keys
};

// One bar per category, the series stacked in order (a step-time breakdown). One series gives
// plain bars.
std::string stacked_bars_svg(const Chart& c);

// One line per series over the categories, evenly spaced (sweep points need not be numbers).
std::string lines_svg(const Chart& c);

// One bar per category and series, up or down from a zero line (differences against a base).
std::string signed_bars_svg(const Chart& c);

// Points on two numeric axes, the ones on the Pareto front (no other point has at least their y
// at no more than their x) joined by a line and drawn larger; labels as tooltips.
struct ScatterPoint {
  double x = 0;
  double y = 0;
  std::string label;
  bool marked = false;  // drawn as a ring (the scenario as written)
};
struct Scatter {
  std::string title;
  std::string x_label;
  std::string y_label;
  std::vector<ScatterPoint> points;
};
std::string scatter_svg(const Scatter& c);

// Indices of the points on the Pareto front (lower x, higher y is better), by increasing x.
std::vector<std::size_t> pareto_front(const std::vector<ScatterPoint>& points);

// A round tick step (1, 2 or 5 times a power of ten) giving about five ticks up to `top`.
double tick_step(double top);

// Tick labels: as few digits as the step needs; large values in k, M, G, T.
std::string tick_label(double v, double step);

// The fill colour of series i (also used for legends in tables).
std::string series_color(std::size_t i);

// Text escaped for HTML and SVG: & < > " '.
std::string escape_xml(const std::string& text);

}  // namespace codesim::report
