// HTML pages built from the step columns and the SVG charts.
#include "sim/report/html_report.hpp"

#include "sim/report/format.hpp"
#include "sim/report/html_page.hpp"
#include "sim/report/labels.hpp"
#include "sim/report/svg_chart.hpp"
#include "sim/report/timeline_svg.hpp"

namespace codesim::report {
namespace {

using metrics::RunResult;

std::string headline(const RunResult& r) {
  return "step " + fixed(r.step_time.value, 3) + " s, " + fixed(r.tokens_per_day / 1e9, 1) +
         " B tokens/day, " + fixed(r.tflops_causal, 0) + " TFLOPS per GPU (causal), MFU " +
         fixed(100 * r.mfu_causal, 1) + "%";
}

}  // namespace

std::string run_html(const RunResult& r, const PageFooter& footer) {
  std::string out = open_page("codesim: " + r.scenario);
  out += "<p>" + escape_xml(headline(r)) + "</p>\n";
  if (r.spread) {
    out += "<p>" + escape_xml(spread_line(r)) + "</p>\n";
  }
  out += "<h2>Step time</h2>\n" + stacked_bars_svg(breakdown_chart({r.scenario}, {&r})) + "\n";
  if (!r.lanes.empty()) {
    out +=
        "<h2>Timeline</h2>\n<p>The replayed step per pipeline rank: chunks on the compute "
        "lane, transfers on the communication lane, in black under it the communication no compute "
        "covered. Hover a chunk for its times.</p>\n" +
        timeline_svg(r.lanes, timeline_step(r)) + "\n";
  }
  std::vector<std::vector<std::string>> exposed_rows;
  for (const auto g : metrics::kCommGroups) {
    exposed_rows.push_back(
        {std::string(metrics::comm_group_name(g)), fixed(exposed(r, g).value * 1e3, 1)});
  }
  out += "<h2>Exposed communication (first rank)</h2>\n" + html_table({"kind", "ms"}, exposed_rows);
  std::vector<std::vector<std::string>> links;
  for (const auto& l : r.busiest_links) {
    links.push_back(link_row(l));
  }
  out += "<h2>Link utilization</h2>\n" + html_table(link_header(), links);
  std::vector<std::vector<std::string>> tiers;
  for (const auto& t : r.tiers) {
    tiers.push_back(tier_row(t));
  }
  if (!tiers.empty()) {
    out += html_table(tier_header(), tiers);
  }
  const auto& m = r.memory;
  out += "<h2>Memory per GPU (first rank)</h2>\n" +
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

}  // namespace codesim::report
