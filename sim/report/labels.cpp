// Note lines and their JSON; the rows of the busiest links' and the link tiers' tables.
#include "sim/report/labels.hpp"

#include <stdexcept>

#include "sim/report/format.hpp"

namespace codesim::report {

std::string note_line(const core::Note& n) {
  return std::string(core::note_kind_name(n.kind)) + ": " + n.text;
}

nlohmann::ordered_json notes_json(const std::vector<core::Note>& notes) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& n : notes) {
    out.push_back({{"kind", std::string(core::note_kind_name(n.kind))}, {"text", n.text}});
  }
  return out;
}

std::vector<std::string> link_header() {
  return {"busiest links", "GB", "utilization", "in flight (s)", "while in flight"};
}

std::vector<std::string> link_row(const metrics::LinkUse& l) {
  return {l.link, fixed(l.bytes.value / 1e9, 1), fixed(100 * l.utilization, 1) + "%",
          fixed(l.in_flight.value, 3), fixed(100 * l.in_flight_utilization, 1) + "%"};
}

std::vector<std::string> tier_header() {
  return {"link tier", "links", "used", "TB", "mean utilization", "highest", "while in flight"};
}

std::vector<std::string> tier_row(const metrics::TierUse& t) {
  return {t.tier,
          std::to_string(t.links),
          std::to_string(t.used),
          fixed(t.bytes.value / 1e12, 2),
          fixed(100 * t.mean_utilization, 1) + "%",
          fixed(100 * t.max_utilization, 1) + "%",
          fixed(100 * t.max_in_flight_utilization, 1) + "%"};
}

core::Seconds timeline_step(const metrics::RunResult& r) {
  return r.spread ? r.spread->identical : r.step_time;
}

std::string spread_line(const metrics::RunResult& r) {
  if (!r.spread) {
    return "";
  }
  const metrics::StepSpread& s = *r.spread;
  return "step under variability: mean " + fixed(s.mean.value, 3) + " s, p10 " +
         fixed(s.p10.value, 3) + " s, p50 " + fixed(s.p50.value, 3) + " s, p90 " +
         fixed(s.p90.value, 3) + " s over " + std::to_string(s.steps) +
         " steps drawn; identical replicas " + fixed(s.identical.value, 3) + " s (+" +
         fixed(100 * (s.mean / s.identical - 1), 1) + "%)";
}

core::Seconds exposed(const metrics::RunResult& r, metrics::CommGroup g) {
  const auto it = r.exposed_comm.find(g);
  return it == r.exposed_comm.end() ? core::Seconds(0) : it->second;
}

}  // namespace codesim::report
