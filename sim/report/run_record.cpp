// The run report plus the lanes, and back.
#include "sim/report/run_record.hpp"

#include "sim/report/run_report.hpp"

namespace codesim::report {
namespace {

using nlohmann::ordered_json;

template <class Span, class Kind>
ordered_json spans_json(const std::vector<Span>& spans, Kind Span::*kind) {
  ordered_json out = ordered_json::array();
  for (const Span& s : spans) {
    out.push_back({s.start.value, s.end.value, static_cast<int>(s.*kind)});
  }
  return out;
}

template <class Span, class Kind>
std::vector<Span> spans_from(const ordered_json& j, Kind Span::*kind) {
  std::vector<Span> out;
  for (const auto& s : j) {
    Span span;
    span.start = core::Seconds(s.at(0).get<double>());
    span.end = core::Seconds(s.at(1).get<double>());
    span.*kind = static_cast<Kind>(s.at(2).get<int>());
    out.push_back(span);
  }
  return out;
}

}  // namespace

ordered_json run_record_json(const metrics::RunResult& r) {
  ordered_json lanes = ordered_json::array();
  for (const auto& l : r.lanes) {
    lanes.push_back({{"compute", spans_json(l.compute, &metrics::ComputeSpan::kind)},
                     {"comm", spans_json(l.comm, &metrics::CommSpan::group)},
                     {"exposed", spans_json(l.exposed, &metrics::CommSpan::group)}});
    if (l.power.clock_mhz > 0) {
      lanes.back()["power"] = {{"clock_mhz", l.power.clock_mhz},
                               {"computing_w", l.power.computing_w},
                               {"waiting_w", l.power.waiting_w}};
    }
    lanes.back()["memory"] = {{"state_bytes", l.memory.state_bytes},
                              {"activations_at_start", l.memory.activations_at_start},
                              {"activations_at_end", l.memory.activations_at_end}};
  }
  return {{"run", run_json(r)}, {"lanes", lanes}};
}

metrics::RunResult run_from_record(const ordered_json& j) {
  metrics::RunResult r = run_from_json(j.at("run"));
  for (const auto& l : j.at("lanes")) {
    r.lanes.push_back({spans_from(l.at("compute"), &metrics::ComputeSpan::kind),
                       spans_from(l.at("comm"), &metrics::CommSpan::group),
                       spans_from(l.at("exposed"), &metrics::CommSpan::group)});
    if (l.contains("power")) {
      const auto& p = l.at("power");
      r.lanes.back().power = {.clock_mhz = p.at("clock_mhz").get<double>(),
                              .computing_w = p.at("computing_w").get<double>(),
                              .waiting_w = p.at("waiting_w").get<double>()};
    }
    if (l.contains("memory")) {
      const auto& m = l.at("memory");
      r.lanes.back().memory = {
          .state_bytes = m.at("state_bytes").get<double>(),
          .activations_at_start = m.at("activations_at_start").get<std::vector<double>>(),
          .activations_at_end = m.at("activations_at_end").get<std::vector<double>>()};
    }
  }
  return r;
}

}  // namespace codesim::report
