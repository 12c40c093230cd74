// JSON and terminal writers of a step's RunResult.
#include "sim/report/run_report.hpp"

#include "sim/report/energy_report.hpp"
#include "sim/report/format.hpp"
#include "sim/report/labels.hpp"
#include "sim/report/table.hpp"

namespace codesim::report {

namespace {

nlohmann::ordered_json spread_json(const metrics::StepSpread& sp) {
  return {{"identical_step_s", sp.identical.value},
          {"steps", sp.steps},
          {"gpus", sp.gpus},
          {"units_per_rank", sp.units},
          {"units_replayed", sp.units_replayed},
          {"slow_gpus_per_step", sp.slow_gpus},
          {"slow_links_per_step", sp.slow_links},
          {"step_times_s", sp.step_times_s},
          {"step_weights", sp.step_weights}};
}

nlohmann::ordered_json links_json(const metrics::RunResult& r) {
  nlohmann::ordered_json links = nlohmann::ordered_json::array();
  for (const auto& l : r.busiest_links) {
    links.push_back({{"link", l.link},
                     {"bytes", l.bytes.value},
                     {"utilization", l.utilization},
                     {"in_flight_s", l.in_flight.value},
                     {"in_flight_utilization", l.in_flight_utilization}});
  }
  return links;
}

nlohmann::ordered_json tiers_json(const metrics::RunResult& r) {
  nlohmann::ordered_json tiers = nlohmann::ordered_json::array();
  for (const auto& t : r.tiers) {
    tiers.push_back({{"tier", t.tier},
                     {"links", t.links},
                     {"used", t.used},
                     {"bytes", t.bytes.value},
                     {"mean_utilization", t.mean_utilization},
                     {"max_utilization", t.max_utilization},
                     {"max_in_flight_utilization", t.max_in_flight_utilization}});
  }
  return tiers;
}

nlohmann::ordered_json memory_json(const metrics::MemoryUse& m) {
  return {{"parameters", m.parameters.value / 1e9},
          {"gradients", m.gradients.value / 1e9},
          {"optimizer", m.optimizer.value / 1e9},
          {"activations", m.activations.value / 1e9},
          {"peak_in_flight", m.peak_in_flight},
          {"total", m.total().value / 1e9},
          {"backward_transient", m.backward_transient.value / 1e9},
          {"optimizer_transient", m.optimizer_transient.value / 1e9},
          {"gradients_persist", m.gradients_persist},
          {"framework", m.framework.value / 1e9},
          {"ep_buffers", m.ep_buffers.value / 1e9},
          {"capacity", m.capacity.value / 1e9}};
}

// A rank's memory chunk by chunk: [start s, end s, GB at its start, GB at its end].
nlohmann::ordered_json memory_timeline_json(const metrics::RankLanes& lane) {
  nlohmann::ordered_json chunks = nlohmann::ordered_json::array();
  for (const metrics::MemoryStep& c : metrics::memory_steps(lane)) {
    chunks.push_back({c.start.value, c.end.value, c.bytes_at_start / 1e9, c.bytes_at_end / 1e9});
  }
  return {{"state_gb", lane.memory.state_bytes / 1e9}, {"chunks", chunks}};
}

}  // namespace

nlohmann::ordered_json run_json(const metrics::RunResult& r) {
  nlohmann::ordered_json j;
  j["schema_version"] = kSchemaVersion;
  j["scenario"] = r.scenario;
  j["fidelity"] = metrics::fidelity_name(r.fidelity);
  j["step_time_s"] = r.step_time.value;
  if (r.spread) {
    const metrics::StepSpread& sp = *r.spread;
    j["step_time_p10_s"] = sp.p10.value;
    j["step_time_p50_s"] = sp.p50.value;
    j["step_time_p90_s"] = sp.p90.value;
    j["variability"] = spread_json(sp);
  }
  nlohmann::ordered_json breakdown;
  for (const auto& part : kBreakdownParts) {
    breakdown[std::string(part.label)] = (r.breakdown.*part.member).value;
  }
  j["breakdown_s"] = breakdown;
  j["tokens_per_step"] = r.tokens_per_step;
  j["tokens_per_day"] = r.tokens_per_day;
  j["tflops_causal"] = r.tflops_causal;
  j["tflops_noncausal"] = r.tflops_noncausal;
  j["mfu_causal"] = r.mfu_causal;
  j["mfu_noncausal"] = r.mfu_noncausal;
  j["hfu_causal"] = r.hfu_causal;
  nlohmann::ordered_json exposed;
  for (const auto g : metrics::kCommGroups) {
    exposed[std::string(metrics::comm_group_name(g))] = report::exposed(r, g).value;
  }
  j["exposed_comm_s"] = exposed;
  j["compute_busy_s"] = r.compute_busy.value;
  j["fb_pair_s"] = r.median_pair.value;
  j["fb_pairs_measured"] = r.pairs_measured;
  j["ib_bytes_per_gpu"] = r.ib_bytes_per_gpu.value;
  j["busiest_links"] = links_json(r);
  j["link_tiers"] = tiers_json(r);
  j["memory_gb_per_gpu"] = memory_json(r.memory);
  if (!r.lanes.empty()) {
    j["memory_timeline"] = memory_timeline_json(r.lanes.front());
  }
  if (r.energy) {
    j["energy"] = energy_json(*r.energy);
  }
  j["placement"] = r.placement;
  j["network"] = {{"family", r.network.family},
                  {"endpoints", r.network.endpoints},
                  {"switches", r.network.switches},
                  {"switch_links", r.network.switch_links},
                  {"cost_usd", r.network.cost_usd}};
  j["notes"] = notes_json(r.notes);
  return j;
}

std::string run_table(const metrics::RunResult& r) {
  std::string out;
  out += r.scenario + ": step " + fixed(r.step_time.value, 3) + " s, " +
         fixed(r.tokens_per_day / 1e9, 2) + " B tokens/day, " + fixed(r.tflops_causal, 0) +
         " TFLOPS per GPU causal (" + fixed(r.tflops_noncausal, 0) + " non-causal), MFU " +
         fixed(100 * r.mfu_causal, 1) + "% (" + fixed(100 * r.mfu_noncausal, 1) + "%), HFU " +
         fixed(100 * r.hfu_causal, 1) + "%\n";
  if (r.spread) {
    out += spread_line(r) + "\n";
  }
  out += "\n";
  using Align = Table::Align;
  std::vector<std::string> header;
  std::vector<std::string> row;
  auto s = [](core::Seconds x) { return fixed(x.value, 3) + " s"; };
  for (const auto& part : kBreakdownParts) {
    header.emplace_back(part.label);
    row.push_back(s(r.breakdown.*part.member));
  }
  header.emplace_back("step");
  row.push_back(s(r.step_time));
  Table b(header, std::vector(header.size(), Align::right));
  b.add_row(row);
  out += "first pipeline rank:\n" + b.render() + "\n";
  out += "exposed communication (first rank):";
  for (const auto g : metrics::kCommGroups) {
    out += " " + std::string(metrics::comm_group_name(g)) + " " +
           fixed(exposed(r, g).value * 1e3, 1) + " ms";
  }
  out += "\n";
  out += "overlapped F&B pair of MoE stages: median " + fixed(r.median_pair.value * 1e3, 1) +
         " ms over " + std::to_string(r.pairs_measured) + " pairs; IB bytes per GPU " +
         fixed(r.ib_bytes_per_gpu.value / 1e9, 1) + " GB per step\n\n";
  Table links(link_header(), {Align::left, Align::right, Align::right, Align::right, Align::right});
  for (const auto& l : r.busiest_links) {
    links.add_row(link_row(l));
  }
  out += links.render() + "\n";
  if (!r.tiers.empty()) {
    Table tiers(tier_header(), {Align::left, Align::right, Align::right, Align::right, Align::right,
                                Align::right, Align::right});
    for (const auto& t : r.tiers) {
      tiers.add_row(tier_row(t));
    }
    out += tiers.render() + "\n";
  }
  const auto& m = r.memory;
  auto gb = [](core::Bytes x, int digits) { return fixed(x.value / 1e9, digits) + " GB"; };
  out += "memory per GPU (first rank): parameters " + gb(m.parameters, 1) + ", gradients " +
         gb(m.gradients, 1) + ", optimizer " + gb(m.optimizer, 1) + ", activations " +
         gb(m.activations, 1) + " (" + std::to_string(m.peak_in_flight) +
         " micro-batches in flight at the peak); the step's peak " +
         fixed(m.total().value / 1e9, 1) + " of " + gb(m.capacity, 0) +
         (m.optimizer_peak() > m.backward_peak()
              ? " in the optimizer step (its temporaries " + gb(m.optimizer_transient, 1) + ")"
              : " as the backward starts (" +
                    std::string(m.gradients_persist ? "gradients held" : "no gradients yet") +
                    ", transients " + gb(m.backward_transient, 1) + ")") +
         ", with the CUDA context and libraries' " + gb(m.framework, 1) +
         (m.ep_buffers.value > 0 ? " and DeepEP's buffers " + gb(m.ep_buffers, 1) : "") +
         (m.fits() ? ": fits with " + gb(m.capacity - m.needed(), 1) + " to spare"
                   : ": over by " + gb(m.needed() - m.capacity, 1)) +
         "\n\n";
  if (r.energy) {
    out += energy_line(*r.energy) + "\n\n";
  }
  out += "layers per stage:";
  for (std::size_t i = 0; i < r.placement.size(); ++i) {
    out += (i == 0 ? " " : "; ") + std::to_string(i) + ": " + r.placement[i];
  }
  out += "\n";
  for (const auto& n : r.notes) {
    out += "note: " + note_line(n) + "\n";
  }
  return out;
}

}  // namespace codesim::report
