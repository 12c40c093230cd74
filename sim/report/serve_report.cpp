// JSON, terminal, CSV, Markdown and HTML writers of a serving run.
#include "sim/report/serve_report.hpp"

#include "sim/report/figure_list.hpp"
#include "sim/report/format.hpp"
#include "sim/report/labels.hpp"
#include "sim/report/schema_version.hpp"
#include "sim/report/svg_chart.hpp"

namespace codesim::report {
namespace {

nlohmann::ordered_json ms(const metrics::LatencySummary& l) {
  return {{"p50", l.p50 * 1e3}, {"p90", l.p90 * 1e3}, {"p99", l.p99 * 1e3}, {"mean", l.mean * 1e3}};
}

nlohmann::ordered_json instances_json(const metrics::ServeInstances& i) {
  return {{"instances", i.instances},
          {"gpus_each", i.gpus_each},
          {"tp", i.tp},
          {"ep", i.ep},
          {"pp", i.pp},
          {"busy", i.busy},
          {"steps", i.steps},
          {"reference_step_ms", i.reference_step.value * 1e3},
          {"full_load_tokens_per_s_per_node", i.full_load_tokens_per_s_per_node}};
}

std::string latency_text(const metrics::LatencySummary& l) {
  return fixed(l.p50 * 1e3, 2) + " / " + fixed(l.p90 * 1e3, 2) + " / " + fixed(l.p99 * 1e3, 2) +
         " ms";
}

std::string instances_text(const metrics::ServeInstances& i) {
  return std::to_string(i.instances) + " x " + std::to_string(i.gpus_each) + " GPUs (TP" +
         std::to_string(i.tp) + ", EP" + std::to_string(i.ep) +
         (i.pp > 1 ? ", PP" + std::to_string(i.pp) : std::string()) + "), busy " +
         fixed(100 * i.busy, 0) + "%, " + std::to_string(i.steps) + " steps, full-load step " +
         fixed(i.reference_step.value * 1e3, 2) + " ms (" +
         fixed(i.full_load_tokens_per_s_per_node, 0) + " tokens/s per node)";
}

std::string slo_text(const metrics::ServeResult& r) {
  if (r.slo == metrics::SloVerdict::none) {
    return "none given";
  }
  std::string targets;
  if (r.slo_ttft.value > 0) {
    targets += "TTFT <= " + fixed(r.slo_ttft.value * 1e3, 1) + " ms";
  }
  if (r.slo_tpot.value > 0) {
    targets += (targets.empty() ? "" : ", ") + std::string("TPOT <= ") +
               fixed(r.slo_tpot.value * 1e3, 2) + " ms";
  }
  return std::string(metrics::slo_verdict_name(r.slo)) + ": " + fixed(100 * r.slo_attainment, 1) +
         "% of requests meet " + targets + " (needed " + fixed(100 * r.slo_attainment_target, 0) +
         "%); goodput " + fixed(r.goodput, 2) + " requests/s";
}

}  // namespace

nlohmann::ordered_json serve_json(const metrics::ServeResult& r) {
  nlohmann::ordered_json j;
  j["schema_version"] = kSchemaVersion;
  j["scenario"] = r.scenario;
  j["arrivals"] = r.arrivals;
  j["requests"] = r.requests;
  j["gpus"] = r.gpus;
  j["gpus_per_node"] = r.gpus_per_node;
  j["prefill"] = instances_json(r.prefill);
  j["decode"] = instances_json(r.decode);
  j["decode_kv_tokens"] = r.decode_kv_tokens;
  j["horizon_s"] = r.horizon.value;
  j["ttft_ms"] = ms(r.ttft);
  j["tpot_ms"] = ms(r.tpot);
  j["latency_ms"] = ms(r.latency);
  j["arrival_rate"] = r.arrival_rate;
  j["mean_in_flight"] = r.mean_in_flight;
  j["output_tokens_per_s"] = r.output_tokens_per_s;
  j["output_tokens_per_s_per_gpu"] = r.output_tokens_per_s_per_gpu;
  j["output_tokens_per_s_per_node"] = r.output_tokens_per_s_per_node;
  j["prompt_tokens_per_s"] = r.prompt_tokens_per_s;
  j["mean_decode_batch"] = r.mean_decode_batch;
  j["waited_for_kv"] = r.waited_for_kv;
  j["peak_decode_waiting"] = r.peak_decode_waiting;
  j["slo"] = {{"ttft_ms", r.slo_ttft.value * 1e3},
              {"tpot_ms", r.slo_tpot.value * 1e3},
              {"attainment_target", r.slo_attainment_target},
              {"attainment", r.slo_attainment},
              {"goodput", r.goodput},
              {"verdict", metrics::slo_verdict_name(r.slo)}};
  if (r.energy) {
    const metrics::ServeEnergy& e = *r.energy;
    j["energy"] = {{"total_j", e.total_j()},       {"per_output_token_j", e.per_output_token_j},
                   {"gpu_steps_j", e.gpu_steps_j}, {"gpu_idle_j", e.gpu_idle_j},
                   {"network_j", e.network_j},     {"host_j", e.host_j},
                   {"gpu_idle_w", e.gpu_idle_w},   {"mean_gpu_power_w", e.mean_gpu_power_w}};
  }
  j["notes"] = notes_json(r.notes);
  return j;
}

FigureList serve_figures(const metrics::ServeResult& r) {
  FigureList out{{"arrivals", r.arrivals},
                 {"requests", std::to_string(r.requests)},
                 {"GPUs", std::to_string(r.gpus)},
                 {"prefill instances", instances_text(r.prefill)},
                 {"decode instances", instances_text(r.decode)},
                 {"KV-cache tokens per decode instance", fixed(r.decode_kv_tokens, 0)},
                 {"horizon (s)", fixed(r.horizon.value, 2)},
                 {"TTFT p50 / p90 / p99", latency_text(r.ttft)},
                 {"TPOT p50 / p90 / p99", latency_text(r.tpot)},
                 {"latency p50 / p90 / p99", latency_text(r.latency)},
                 {"output tokens/s", fixed(r.output_tokens_per_s, 0)},
                 {"output tokens/s per GPU", fixed(r.output_tokens_per_s_per_gpu, 1)},
                 {"output tokens/s per node", fixed(r.output_tokens_per_s_per_node, 0)},
                 {"prompt tokens/s", fixed(r.prompt_tokens_per_s, 0)},
                 {"mean decode batch (requests)", fixed(r.mean_decode_batch, 1)},
                 {"requests that waited for KV cache", std::to_string(r.waited_for_kv)},
                 {"requests in flight (mean)", fixed(r.mean_in_flight, 2)},
                 {"arrival rate (requests/s)", fixed(r.arrival_rate, 3)},
                 {"SLO", slo_text(r)}};
  if (r.energy) {
    const metrics::ServeEnergy& e = *r.energy;
    out.push_back({"energy per output token (J)", fixed(e.per_output_token_j, 3)});
    out.push_back({"energy: GPU steps / GPU idle / network / hosts (kJ)",
                   fixed(e.gpu_steps_j / 1e3, 1) + " / " + fixed(e.gpu_idle_j / 1e3, 1) + " / " +
                       fixed(e.network_j / 1e3, 1) + " / " + fixed(e.host_j / 1e3, 1)});
    out.push_back({"mean GPU power (W)", fixed(e.mean_gpu_power_w, 0)});
  }
  return out;
}

std::string serve_table(const metrics::ServeResult& r) {
  return figure_list_table(r.scenario + " (serve)", serve_figures(r), r.notes);
}

std::string serve_csv(const metrics::ServeResult& r) {
  return figure_list_csv(serve_figures(r));
}

std::string serve_markdown(const metrics::ServeResult& r) {
  return figure_list_markdown(r.scenario + " (serve)", serve_figures(r), r.notes);
}

std::string serve_html(const metrics::ServeResult& r, const PageFooter& footer) {
  std::string out = open_page("codesim: " + r.scenario + " (serve)");
  out +=
      "<p>" +
      escape_xml("TTFT p90 " + fixed(r.ttft.p90 * 1e3, 1) + " ms, TPOT p90 " +
                 fixed(r.tpot.p90 * 1e3, 2) + " ms, " + fixed(r.output_tokens_per_s_per_node, 0) +
                 " output tokens/s per node; SLO " + slo_text(r)) +
      ".</p>\n";
  out += figure_list_html(serve_figures(r));
  return out + provenance(r.notes) + footer_html(footer);
}

}  // namespace codesim::report
