// The HTML page of a sweep: breakdown, throughput and cost per point, the x axis labelled with
// the varied keys; when every point is within a few percent of the first, a view of the
// differences against it (bars from zero instead of near-equal bars).
#include "sim/report/format.hpp"
#include "sim/report/html_report.hpp"
#include "sim/report/labels.hpp"
#include "sim/report/svg_chart.hpp"

namespace codesim::report {
namespace {

using metrics::RunResult;

// Within this share of the first point's step time, differences are shown against it.
constexpr double kNearlyEqual = 0.05;

struct Points {
  std::vector<std::string> names;  // each point's values, "1 / dualpipe"
  std::vector<const RunResult*> results;
  std::string axis;  // "routing.node_limit / schedule.method"
};

Points points_of(const metrics::SweepResult& s) {
  Points p;
  for (const auto& k : s.keys) {
    p.axis += (p.axis.empty() ? "" : " / ") + k;
  }
  for (const auto& point : s.points) {
    std::string name;
    for (const auto& v : point.values) {
      name += (name.empty() ? "" : " / ") + v;
    }
    p.names.push_back(name);
    p.results.push_back(point.result ? &*point.result : nullptr);
  }
  return p;
}

template <class F>
Series series(const Points& p, const std::string& label, F value) {
  Series out{label, {}};
  for (const auto* r : p.results) {
    out.values.push_back(r != nullptr ? value(*r) : 0.0);
  }
  return out;
}

std::string charts(const Points& p) {
  Chart breakdown = breakdown_chart(p.names, p.results);
  breakdown.x_label = p.axis;
  std::string out = "<h2>Step time per point</h2>\n" + stacked_bars_svg(breakdown) + "\n";
  out += "<h2>Throughput</h2>\n" +
         lines_svg({"tokens per day per point",
                    p.names,
                    {series(p, "tokens/day", [](const RunResult& r) { return r.tokens_per_day; })},
                    "tokens per day",
                    p.axis}) +
         "\n";
  out += lines_svg(
             {"MFU per point",
              p.names,
              {series(p, "MFU causal (%)", [](const RunResult& r) { return 100 * r.mfu_causal; }),
               series(p, "MFU non-causal (%)",
                      [](const RunResult& r) { return 100 * r.mfu_noncausal; })},
              "percent",
              p.axis}) +
         "\n";
  out += "<h2>Network cost</h2>\n" +
         stacked_bars_svg({"network cost per point",
                           p.names,
                           {series(p, "network cost (M$)",
                                   [](const RunResult& r) { return r.network.cost_usd / 1e6; })},
                           "million USD",
                           p.axis}) +
         "\n";
  return out;
}

// Every simulated point within kNearlyEqual of the first one's step time (which must exist).
bool nearly_equal(const Points& p) {
  const RunResult* base = p.results.empty() ? nullptr : p.results.front();
  if (base == nullptr) {
    return false;
  }
  int others = 0;
  for (std::size_t i = 1; i < p.results.size(); ++i) {
    const RunResult* r = p.results[i];
    if (r == nullptr) {
      continue;
    }
    if (std::abs(r->step_time.value / base->step_time.value - 1) > kNearlyEqual) {
      return false;
    }
    ++others;
  }
  return others > 0;
}

std::string differences(const Points& p) {
  const RunResult& base = *p.results.front();
  const auto change = [&](auto value) {
    return [&base, value](const RunResult& r) { return 100 * (value(r) / value(base) - 1); };
  };
  const auto step = [](const RunResult& r) { return r.step_time.value; };
  const auto tokens = [](const RunResult& r) { return r.tokens_per_day; };
  std::string out = "<h2>Differences against point 0</h2>\n<p>Every point is within " +
                    fixed(100 * kNearlyEqual, 0) + "% of point 0 (" + escape_xml(p.names.front()) +
                    "): its changes, in percent.</p>\n";
  out += signed_bars_svg({"change against point 0 per point",
                          p.names,
                          {series(p, "step time (%)", change(step)),
                           series(p, "tokens per day (%)", change(tokens))},
                          "percent",
                          p.axis}) +
         "\n";
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < p.results.size(); ++i) {
    const RunResult* r = p.results[i];
    if (r == nullptr) {
      continue;
    }
    const double ep = exposed(*r, metrics::CommGroup::ep).value;
    const double base_ep = exposed(base, metrics::CommGroup::ep).value;
    rows.push_back({std::to_string(i), p.names[i], fixed(change(step)(*r), 2),
                    fixed(change(tokens)(*r), 2), fixed(100 * (r->mfu_causal - base.mfu_causal), 2),
                    fixed((ep - base_ep) * 1e3, 1)});
  }
  return out + html_table({"point", p.axis, "step (%)", "tokens/day (%)", "MFU (points)",
                           "exposed EP (ms)"},
                          rows);
}

std::string points_table(const metrics::SweepResult& s) {
  std::vector<std::string> header{"point"};
  header.insert(header.end(), s.keys.begin(), s.keys.end());
  for (const char* h : {"step (s)", "B tokens/day", "MFU (%)", "exposed EP (ms)", "busiest link",
                        "utilization", "error"}) {
    header.push_back(h);
  }
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < s.points.size(); ++i) {
    const auto& p = s.points[i];
    std::vector<std::string> row{std::to_string(i)};
    row.insert(row.end(), p.values.begin(), p.values.end());
    if (p.result) {
      const auto& r = *p.result;
      const auto* busiest = r.busiest_links.empty() ? nullptr : &r.busiest_links.front();
      row.push_back(fixed(r.step_time.value, 3));
      row.push_back(fixed(r.tokens_per_day / 1e9, 1));
      row.push_back(fixed(100 * r.mfu_causal, 1));
      row.push_back(fixed(exposed(r, metrics::CommGroup::ep).value * 1e3, 1));
      row.push_back(busiest != nullptr ? busiest->link : "");
      row.push_back(busiest != nullptr ? fixed(100 * busiest->utilization, 1) + "%" : "");
      row.push_back("");
    } else {
      row.insert(row.end(), 6, "");
      row.push_back(p.error);
    }
    rows.push_back(std::move(row));
  }
  return "<h2>Points and link utilization</h2>\n" + html_table(header, rows);
}

}  // namespace

std::string sweep_html(const metrics::SweepResult& s, const PageFooter& footer) {
  const Points p = points_of(s);
  std::string out = open_page("codesim sweep: " + s.scenario);
  out += "<p>" + std::to_string(s.points.size()) + " points (" +
         escape_xml(std::string(core::sweep_mode_name(s.mode))) + ") varying " +
         escape_xml(p.axis) + ".</p>\n";
  out += charts(p);
  if (nearly_equal(p)) {
    out += differences(p);
  }
  out += points_table(s);
  const RunResult* first = nullptr;
  for (const auto* r : p.results) {
    first = first != nullptr ? first : r;
  }
  return out + provenance(first != nullptr ? first->notes : std::vector<core::Note>{}) +
         footer_html(footer);
}

}  // namespace codesim::report
