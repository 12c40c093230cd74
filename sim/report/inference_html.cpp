// The HTML page of an inference step: headline, per-layer pieces, what bounds it, memory.
#include "sim/core/quantity_parse.hpp"
#include "sim/report/columns.hpp"
#include "sim/report/format.hpp"
#include "sim/report/html_report.hpp"
#include "sim/report/svg_chart.hpp"

namespace codesim::report {

std::string inference_html(const metrics::InferenceResult& r, const PageFooter& footer) {
  std::string out = open_page("codesim: " + r.scenario + " (" +
                              std::string(metrics::inference_phase_name(r.phase)) + ")");
  const bool decode = r.phase == metrics::InferencePhase::decode;
  out += "<p>" +
         escape_xml(decode ? "TPOT " + fixed(r.tpot.value * 1e3, 2) + " ms, " +
                                 fixed(r.tokens_per_s_per_request, 1) + " tokens/s per request, " +
                                 fixed(r.tokens_per_s_per_node, 0) + " output tokens/s per node"
                           : "TTFT " + fixed(r.ttft.value * 1e3, 1) + " ms, " +
                                 fixed(r.tokens_per_s_per_node, 0) + " prompt tokens/s per node") +
         "; bound by " + escape_xml(r.bound_by) + ".</p>\n";
  out += "<p>" + std::to_string(r.gpus) + " GPUs, EP" + std::to_string(r.ep) + ", attention TP" +
         std::to_string(r.tp) + ", " + std::to_string(r.micro_batches) + " micro-batches of " +
         std::to_string(r.tokens_per_micro_batch) + (decode ? " requests" : " tokens") +
         " per GPU.</p>\n";
  const std::vector<std::pair<std::string, core::Seconds>> pieces{{"attention", r.attention},
                                                                  {"dense FFN", r.dense_mlp},
                                                                  {"experts", r.moe},
                                                                  {"dispatch", r.dispatch},
                                                                  {"combine", r.combine}};
  Chart chart{"per layer and micro-batch on one GPU", {}, {{"time (us)", {}}}, "microseconds"};
  for (const auto& [name, t] : pieces) {
    chart.categories.push_back(name);
    chart.series.front().values.push_back(t.value * 1e6);
  }
  out += "<h2>Per layer and micro-batch</h2>\n" + stacked_bars_svg(chart) + "\n";
  out += "<p>Compute busy " + fixed(100 * r.compute_busy, 0) + "% of the step, communication " +
         fixed(100 * r.comm_busy, 0) + "%.</p>\n";
  out += "<h2>Memory per GPU</h2>\n" +
         html_table(
             {"weights (GB)", "KV cache (GB)", "activations (GB)", "capacity (GB)",
              "largest batch that fits"},
             {{fixed(r.weights_per_gpu.value / 1e9, 1), fixed(r.kv_cache_per_gpu.value / 1e9, 1),
               fixed(r.activations_per_gpu.value / 1e9, 2), fixed(r.hbm.value / 1e9, 0),
               std::to_string(r.largest_batch)}});
  std::vector<std::vector<std::string>> rows;
  for (const auto& c : inference_columns()) {
    rows.push_back({c.label, core::format_number(c.value(r))});
  }
  out += "<h2>Figures</h2>\n" + html_table({"figure", "value"}, rows);
  return out + provenance(r.notes) + footer_html(footer);
}

}  // namespace codesim::report
