// HTML pages built from the step columns and the SVG charts.
#include "sim/report/html_report.hpp"

#include "sim/report/format.hpp"
#include "sim/report/html_page.hpp"
#include "sim/report/labels.hpp"
#include "sim/report/svg_chart.hpp"

namespace codesim::report {
namespace {

using metrics::RunResult;

// The step-time breakdown of each result, stacked.
Chart breakdown_chart(const std::vector<std::string>& names,
                      const std::vector<const RunResult*>& results) {
  Chart c{"step-time breakdown of the first pipeline rank", names, {}, "seconds"};
  for (const auto& part : kBreakdownParts) {
    Series s{std::string(part.label), {}};
    for (const auto* r : results) {
      s.values.push_back(r != nullptr ? (r->breakdown.*part.member).value : 0.0);
    }
    c.series.push_back(std::move(s));
  }
  return c;
}

std::string headline(const RunResult& r) {
  return "step " + fixed(r.step_time.value, 3) + " s, " + fixed(r.tokens_per_day / 1e9, 1) +
         " B tokens/day, " + fixed(r.tflops_causal, 0) + " TFLOPS per GPU (causal), MFU " +
         fixed(100 * r.mfu_causal, 1) + "%";
}

}  // namespace

std::string run_html(const RunResult& r, const PageFooter& footer) {
  std::string out = open_page("codesim: " + r.scenario);
  out += "<p>" + escape_xml(headline(r)) + "</p>\n";
  out += "<h2>Step time</h2>\n" + stacked_bars_svg(breakdown_chart({r.scenario}, {&r})) + "\n";
  std::vector<std::vector<std::string>> exposed_rows;
  for (const auto g : metrics::kCommGroups) {
    exposed_rows.push_back(
        {std::string(metrics::comm_group_name(g)), fixed(exposed(r, g).value * 1e3, 1)});
  }
  out += "<h2>Exposed communication (first rank)</h2>\n" +
         html_table({"kind", "ms"}, exposed_rows);
  std::vector<std::vector<std::string>> links;
  for (const auto& l : r.busiest_links) {
    links.push_back({l.link, fixed(l.bytes.value / 1e9, 1), fixed(100 * l.utilization, 1) + "%"});
  }
  out += "<h2>Link utilization</h2>\n" + html_table({"busiest links", "GB", "utilization"}, links);
  const auto& m = r.memory;
  out +=
      "<h2>Memory per GPU (first rank)</h2>\n" +
      html_table({"parameters", "gradients", "optimizer", "activations", "total", "capacity"},
                 {{fixed(m.parameters.value / 1e9, 1), fixed(m.gradients.value / 1e9, 1),
                   fixed(m.optimizer.value / 1e9, 1), fixed(m.activations.value / 1e9, 1),
                   fixed(m.total().value / 1e9, 1), fixed(m.capacity.value / 1e9, 0)}});
  out += "<h2>Network</h2>\n" +
         html_table({"family", "endpoints", "switches", "switch links", "cost (M$)"},
                    {{r.network.family, std::to_string(r.network.endpoints),
                      std::to_string(r.network.switches), std::to_string(r.network.switch_links),
                      fixed(r.network.cost_usd / 1e6, 2)}});
  return out + provenance(r.notes) + footer_html(footer);
}

std::string sweep_html(const metrics::SweepResult& s, const PageFooter& footer) {
  std::string out = open_page("codesim sweep: " + s.scenario);
  std::string varied;
  for (const auto& k : s.keys) {
    varied += (varied.empty() ? "" : ", ") + k;
  }
  out += "<p>" + std::to_string(s.points.size()) + " points (" + escape_xml(s.mode) + ") varying " +
         escape_xml(varied) + ".</p>\n";
  std::vector<std::string> names;
  std::vector<const RunResult*> results;
  for (const auto& p : s.points) {
    std::string name;
    for (const auto& v : p.values) {
      name += (name.empty() ? "" : " / ") + v;
    }
    names.push_back(name);
    results.push_back(p.result ? &*p.result : nullptr);
  }
  const auto series = [&](const std::string& label, auto value) {
    Series out_series{label, {}};
    for (const auto* r : results) {
      out_series.values.push_back(r != nullptr ? value(*r) : 0.0);
    }
    return out_series;
  };
  out +=
      "<h2>Step time per point</h2>\n" + stacked_bars_svg(breakdown_chart(names, results)) + "\n";
  out += "<h2>Throughput</h2>\n" +
         lines_svg({"tokens per day per point",
                    names,
                    {series("tokens/day", [](const RunResult& r) { return r.tokens_per_day; })},
                    "tokens per day"}) +
         "\n";
  out +=
      lines_svg(
          {"MFU per point",
           names,
           {series("MFU causal (%)", [](const RunResult& r) { return 100 * r.mfu_causal; }),
            series("MFU non-causal (%)", [](const RunResult& r) { return 100 * r.mfu_noncausal; })},
           "percent"}) +
      "\n";
  out += "<h2>Network cost</h2>\n" +
         stacked_bars_svg({"network cost per point",
                           names,
                           {series("network cost (M$)",
                                   [](const RunResult& r) { return r.network.cost_usd / 1e6; })},
                           "million USD"}) +
         "\n";
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
      row.push_back(fixed(r.step_time.value, 3));
      row.push_back(fixed(r.tokens_per_day / 1e9, 1));
      row.push_back(fixed(100 * r.mfu_causal, 1));
      row.push_back(fixed(exposed(r, metrics::CommGroup::ep).value * 1e3, 1));
      row.push_back(r.busiest_links.empty() ? "" : r.busiest_links.front().link);
      row.push_back(
          r.busiest_links.empty() ? "" : fixed(100 * r.busiest_links.front().utilization, 1) + "%");
      row.push_back("");
    } else {
      row.insert(row.end(), 6, "");
      row.push_back(p.error);
    }
    rows.push_back(std::move(row));
  }
  out += "<h2>Points and link utilization</h2>\n" + html_table(header, rows);
  const RunResult* first = nullptr;
  for (const auto* r : results) {
    first = first != nullptr ? first : r;
  }
  return out + provenance(first != nullptr ? first->notes : std::vector<core::Note>{}) +
         footer_html(footer);
}

}  // namespace codesim::report
