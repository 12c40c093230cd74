// `codesim trace import`: summary of a profiler trace, optionally saved as a StepTrace.
#include <nlohmann/json.hpp>
#include <ostream>

#include "sim/cli/commands.hpp"
#include "sim/report/atomic_file.hpp"
#include "sim/report/format.hpp"
#include "sim/report/table.hpp"
#include "sim/workload/chrome_import.hpp"
#include "sim/workload/step_trace_json.hpp"
#include "sim/workload/timeline.hpp"

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

}  // namespace

void run_trace(const TraceOptions& o, std::ostream& out) {
  const workload::StepTrace t = workload::import_chrome_trace_file(o.file);
  const auto summary = workload::summarize(t, workload::measured_timeline(t));
  ordered_json j{{"schema_version", 1}, {"source", o.file}};
  j.update(summary_json(summary));
  if (!o.out.empty()) {
    report::write_file_atomically(o.out, workload::to_json(t).dump(1) + "\n");
  }
  if (o.format == "json") {
    out << j.dump(2) << "\n";
  } else {
    print_summary(j, out);
  }
}

}  // namespace codesim::cli
