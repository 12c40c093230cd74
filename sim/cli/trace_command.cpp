// `codesim trace import`: summary of a profiler trace, optionally saved as a StepTrace.
#include <nlohmann/json.hpp>
#include <ostream>

#include "models/hardware/catalog.hpp"
#include "models/llm/catalog.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/usage.hpp"
#include "sim/config/loader.hpp"
#include "sim/core/error.hpp"
#include "sim/core/text.hpp"
#include "sim/report/atomic_file.hpp"
#include "sim/report/format.hpp"
#include "sim/report/table.hpp"
#include "sim/study/trace_replay.hpp"
#include "sim/workload/chrome_export.hpp"
#include "sim/workload/chrome_import.hpp"
#include "sim/workload/step_trace_json.hpp"
#include "sim/workload/timeline.hpp"
#include "sim/workload/trace_model.hpp"

namespace codesim::cli {
namespace {

using nlohmann::ordered_json;
using report::fixed;

ordered_json summary_json(const workload::TimelineSummary& s) {
  ordered_json streams = ordered_json::array();
  for (const auto& st : s.streams) {
    streams.push_back(
        {{"rank", st.rank}, {"stream", st.stream}, {"ops", st.ops}, {"busy_us", st.busy_us}});
  }
  ordered_json pieces = ordered_json::array();
  for (const auto& [name, g] : s.pieces) {
    pieces.push_back(
        {{"piece", name.empty() ? "(none)" : name}, {"ops", g.ops}, {"time_us", g.time_us}});
  }
  ordered_json classes = ordered_json::array();
  for (const auto& [name, g] : s.classes) {
    classes.push_back({{"class", name}, {"ops", g.ops}, {"time_us", g.time_us}});
  }
  return {{"kernels", s.kernels},
          {"memory_ops", s.memory_ops},
          {"span_us", s.span_us},
          {"streams", streams},
          {"communication_busy_us", s.communication_busy_us},
          {"compute_busy_us", s.compute_busy_us},
          {"overlap_us", s.overlap_us},
          {"communication_hidden_fraction",
           s.communication_busy_us > 0 ? s.overlap_us / s.communication_busy_us : 0.0},
          {"pieces", pieces},
          {"classes", classes}};
}

void print_summary(const ordered_json& j, std::ostream& out) {
  out << "kernels " << j["kernels"].get<int>() << " (+" << j["memory_ops"].get<int>()
      << " memory copies/sets), span " << fixed(j["span_us"].get<double>(), 0) << " us\n";
  out << "communication busy " << fixed(j["communication_busy_us"].get<double>(), 0)
      << " us, compute busy " << fixed(j["compute_busy_us"].get<double>(), 0) << " us, overlapped "
      << fixed(j["overlap_us"].get<double>(), 0) << " us ("
      << fixed(100 * j["communication_hidden_fraction"].get<double>(), 1)
      << "% of communication hidden)\n\n";
  using Align = report::Table::Align;
  report::Table streams({"stream", "ops", "busy (us)"}, {Align::right, Align::right, Align::right});
  for (const auto& s : j["streams"]) {
    streams.add_row({std::to_string(s["stream"].get<int>()), std::to_string(s["ops"].get<int>()),
                     fixed(s["busy_us"].get<double>(), 0)});
  }
  out << streams.render() << "\n";
  report::Table pieces({"piece", "ops", "op time (us)"}, {Align::left, Align::right, Align::right});
  for (const auto& p : j["pieces"]) {
    pieces.add_row({p["piece"].get<std::string>(), std::to_string(p["ops"].get<int>()),
                    fixed(p["time_us"].get<double>(), 0)});
  }
  out << pieces.render() << "\n";
  report::Table classes({"class", "ops", "op time (us)"},
                        {Align::left, Align::right, Align::right});
  for (const auto& c : j["classes"]) {
    classes.add_row({c["class"].get<std::string>(), std::to_string(c["ops"].get<int>()),
                     fixed(c["time_us"].get<double>(), 0)});
  }
  out << classes.render();
}

hardware::HardwareSpec hardware_of(const std::string& name, const std::string& flag) {
  return hardware_preset("trace", name, flag);
}

// Predicted against measured time per kernel class.
ordered_json class_comparison(const workload::TimelineSummary& measured,
                              const workload::TimelineSummary& predicted) {
  ordered_json rows = ordered_json::array();
  for (const auto& [name, m] : measured.classes) {
    const double p = predicted.classes.at(name).time_us;
    rows.push_back(
        {{"class", name}, {"ops", m.ops}, {"measured_us", m.time_us}, {"predicted_us", p}});
  }
  return rows;
}

// The replay's table: span against the measured one, per class, per piece, the fit, the method.
void print_replay(const ordered_json& j, std::ostream& out) {
  out << "replay of " << j["source"].get<std::string>() << " (measured on "
      << j["measured_on"].get<std::string>() << ") on " << j["hardware"].get<std::string>()
      << ": span " << fixed(j["span_us"].get<double>(), 0) << " us (measured "
      << fixed(j["measured_span_us"].get<double>(), 0) << " us, "
      << fixed(100 * j["span_error"].get<double>(), 1) << "%)\n\n";
  using Align = report::Table::Align;
  report::Table classes({"class", "ops", "measured (us)", "predicted (us)"},
                        {Align::left, Align::right, Align::right, Align::right});
  for (const auto& c : j["classes"]) {
    classes.add_row({c["class"].get<std::string>(), std::to_string(c["ops"].get<int>()),
                     fixed(c["measured_us"].get<double>(), 0),
                     fixed(c["predicted_us"].get<double>(), 0)});
  }
  out << classes.render() << "\n";
  report::Table piece_table({"piece", "measured (us)", "predicted (us)"},
                            {Align::left, Align::right, Align::right});
  for (const auto& p : j["pieces"]) {
    piece_table.add_row({p["piece"].get<std::string>(), fixed(p["measured_us"].get<double>(), 0),
                         fixed(p["predicted_us"].get<double>(), 0)});
  }
  out << piece_table.render() << "\n";
  const auto& fit = j["kernel_model"];
  report::Table model_table(
      {"piece (per layer)", "GEMM meas.", "pred.", "attention meas.", "pred.", "other meas.",
       "pred.", "total meas.", "pred.", "error"},
      {Align::left, Align::right, Align::right, Align::right, Align::right, Align::right,
       Align::right, Align::right, Align::right, Align::right});
  for (const auto& p : fit["pieces"]) {
    const double measured = p["measured_us"].get<double>();
    const double predicted = p["predicted_us"].get<double>();
    model_table.add_row(
        {p["piece"].get<std::string>(), fixed(p["measured_gemm_us"].get<double>(), 0),
         fixed(p["predicted_gemm_us"].get<double>(), 0),
         fixed(p["measured_attention_us"].get<double>(), 0),
         fixed(p["predicted_attention_us"].get<double>(), 0),
         fixed(p["measured_other_us"].get<double>(), 0),
         fixed(p["predicted_other_us"].get<double>(), 0), fixed(measured, 0), fixed(predicted, 0),
         fixed(100 * (predicted / measured - 1), 1) + "%"});
  }
  out << "the kernel model against the trace, on the measured GPU (us):\n"
      << model_table.render() << "\n";
  out << "fitted to this trace: FP8 GEMM efficiency x"
      << fixed(fit["fp8_gemm_scale"].get<double>(), 3) << " (weight gradients x"
      << fixed(fit["fp8_wgrad_scale"].get<double>(), 3) << " more), grouped expert GEMMs x"
      << fixed(fit["fp8_grouped_scale"].get<double>(), 3) << " (weight gradients x"
      << fixed(fit["fp8_grouped_wgrad_scale"].get<double>(), 3)
      << " more), memory-bound kernels' efficiency x" << fixed(fit["memory_scale"].get<double>(), 3)
      << "\n"
      << j["method"].get<std::string>() << "\n";
}

// The kernel model against the trace, per piece (per layer, on the measured GPU).
ordered_json kernel_model_json(const workload::TraceFit& fit, const std::string& file) {
  ordered_json pieces = ordered_json::array();
  for (const auto& [piece, c] : fit.pieces) {
    pieces.push_back({{"piece", workload::piece_label(piece)},
                      {"layers", c.instances},
                      {"measured_gemm_us", c.measured_gemm_us},
                      {"predicted_gemm_us", c.predicted_gemm_us},
                      {"measured_attention_us", c.measured_attention_us},
                      {"predicted_attention_us", c.predicted_attention_us},
                      {"measured_other_us", c.measured_other_us},
                      {"predicted_other_us", c.predicted_other_us},
                      {"measured_us", c.measured_us()},
                      {"predicted_us", c.predicted_us()}});
  }
  return {{"file", file},
          {"fp8_gemm_scale", fit.fp8_gemm_scale},
          {"fp8_wgrad_scale", fit.fp8_wgrad_scale},
          {"fp8_grouped_scale", fit.fp8_grouped_scale},
          {"fp8_grouped_wgrad_scale", fit.fp8_grouped_wgrad_scale},
          {"memory_scale", fit.memory_scale},
          {"pieces", pieces}};
}

void run_replay(const workload::StepTrace& t, const TraceOptions& o, std::ostream& out) {
  const auto from = hardware_of(o.measured_on, "--measured-on");
  const auto to = o.scenario.empty() ? hardware_of(o.hardware, "--hardware")
                                     : config::load_scenario(o.scenario).hardware.spec;
  if (to.gpu.fp8_peak.value <= 0) {
    throw_usage_error("trace",
                      "the trace's FP8 GEMMs cannot be replayed on the " + to.name +
                          ": it has no FP8 tensor cores",
                      "", "--hardware");
  }
  const auto model = llm::find_preset(o.model);
  if (!model) {
    throw core::InputError(core::Diagnostic{{"codesim trace", 0, 0},
                                            "--model",
                                            "unknown model '" + o.model + "'",
                                            "one of: " + core::join(llm::preset_names(), ", ")});
  }
  const study::TraceReplay replay = study::replay_trace(t, {.model = &*model,
                                                          .tokens = o.tokens,
                                                          .seq_len = o.seq_len,
                                                          .ep = o.ep,
                                                          .held_sms = o.comm_sms,
                                                          .measured_on = from.gpu,
                                                          .target = to.gpu});
  const workload::TraceFit& fit = replay.fit;
  const auto& ms = replay.measured_summary;
  const auto& ps = replay.predicted_summary;
  if (!o.chrome_trace.empty()) {
    report::write_file_atomically(o.chrome_trace,
                                  workload::chrome_trace(t, replay.predicted).dump() + "\n");
  }
  ordered_json pieces = ordered_json::array();
  for (const auto& [name, m] : ms.pieces) {
    pieces.push_back({{"piece", name},
                      {"measured_us", m.time_us},
                      {"predicted_us", ps.pieces.at(name).time_us}});
  }
  const std::string method =
      "list schedule over the imported op DAG keeping each op's measured wait. Each piece's "
      "kernels listed from the model's op tables (" +
      o.model + ", " + std::to_string(o.tokens) + " tokens, EP " + std::to_string(o.ep) +
      ", balanced routing, " + std::to_string(o.comm_sms) +
      " SMs held by communication) and priced by the shipped kernel model on the target; the "
      "piece's GEMM, attention and other time split among its measured kernels of that class as "
      "measured; kernels outside pieces moved by the roofline; communication as measured.";
  const ordered_json j{{"schema_version", 1},
                       {"source", o.file},
                       {"measured_on", from.name},
                       {"hardware", to.name},
                       {"span_us", ps.span_us},
                       {"measured_span_us", ms.span_us},
                       {"span_error", ps.span_us / ms.span_us - 1.0},
                       {"overlap_us", ps.overlap_us},
                       {"classes", class_comparison(ms, ps)},
                       {"pieces", pieces},
                       {"kernel_model", kernel_model_json(fit, o.file)},
                       {"method", method}};
  if (o.format == report::Format::json) {
    out << j.dump(2) << "\n";
    return;
  }
  print_replay(j, out);
}

}  // namespace

void run_trace(const TraceOptions& o, std::ostream& out) {
  const workload::StepTrace t = workload::import_chrome_trace_file(
      o.file, static_cast<std::uintmax_t>(o.max_trace_mb * 1024 * 1024));
  if (o.action == "replay") {
    run_replay(t, o, out);
    return;
  }
  const workload::Timeline measured = workload::measured_timeline(t);
  const auto summary = workload::summarize(t, measured);
  ordered_json j{{"schema_version", 1}, {"source", o.file}};
  j.update(summary_json(summary));
  if (!o.out.empty()) {
    report::write_file_atomically(o.out, workload::to_json(t).dump(1) + "\n");
  }
  if (!o.chrome_trace.empty()) {
    report::write_file_atomically(o.chrome_trace,
                                  workload::chrome_trace(t, measured).dump() + "\n");
  }
  if (o.format == report::Format::json) {
    out << j.dump(2) << "\n";
  } else {
    print_summary(j, out);
  }
}

}  // namespace codesim::cli
