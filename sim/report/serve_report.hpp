// Writers for a request-level serving run (metrics::ServeResult): JSON with schema_version, a
// terminal report, CSV, Markdown and an HTML page, the text formats from one list of figures.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "sim/metrics/serve_result.hpp"
#include "sim/report/figure_list.hpp"
#include "sim/report/html_page.hpp"

namespace codesim::report {

// Keys: schema_version, scenario, arrivals, requests, gpus, gpus_per_node, prefill and decode
// {instances, gpus_each, tp, ep, pp, busy, steps, reference_step_ms,
// full_load_tokens_per_s_per_node}, decode_kv_tokens, horizon_s,
// ttft_ms, tpot_ms, latency_ms {p50, p90, p99, mean}, arrival_rate, mean_in_flight,
// output_tokens_per_s (and _per_gpu, _per_node), prompt_tokens_per_s, mean_decode_batch,
// waited_for_kv, peak_decode_waiting, slo {ttft_ms, tpot_ms, attainment_target, attainment,
// goodput, verdict}, notes.
nlohmann::ordered_json serve_json(const metrics::ServeResult& r);

// Every figure as (label, value) in the order the text formats print them.
FigureList serve_figures(const metrics::ServeResult& r);

std::string serve_table(const metrics::ServeResult& r);
std::string serve_csv(const metrics::ServeResult& r);
std::string serve_markdown(const metrics::ServeResult& r);
std::string serve_html(const metrics::ServeResult& r, const PageFooter& footer);

}  // namespace codesim::report
