// JSON and terminal writers of a step's RunResult.
#include "sim/report/run_report.hpp"

#include "sim/report/format.hpp"
#include "sim/report/table.hpp"

namespace codesim::report {

nlohmann::ordered_json run_json(const metrics::RunResult& r) {
  nlohmann::ordered_json j;
  j["schema_version"] = kSchemaVersion;
  j["scenario"] = r.scenario;
  j["step_time_s"] = r.step_time.value;
  j["breakdown_s"] = {
      {"1F", r.breakdown.forward.value},    {"1B", r.breakdown.backward.value},
      {"1W", r.breakdown.weight.value},     {"1F1B", r.breakdown.forward_backward.value},
      {"bubble", r.breakdown.bubble.value}, {"opt", r.breakdown.optimizer.value}};
  j["tokens_per_step"] = r.tokens_per_step;
  j["tokens_per_day"] = r.tokens_per_day;
  j["tflops_causal"] = r.tflops_causal;
  j["tflops_noncausal"] = r.tflops_noncausal;
  j["mfu_causal"] = r.mfu_causal;
  j["mfu_noncausal"] = r.mfu_noncausal;
  nlohmann::ordered_json exposed;
  for (const auto& [k, v] : r.exposed_comm) {
    exposed[k] = v.value;
  }
  j["exposed_comm_s"] = exposed;
  j["compute_busy_s"] = r.compute_busy.value;
  j["fb_pair_s"] = r.median_pair.value;
  j["fb_pairs_measured"] = r.pairs_measured;
  j["ib_bytes_per_gpu"] = r.ib_bytes_per_gpu.value;
  nlohmann::ordered_json links = nlohmann::ordered_json::array();
  for (const auto& l : r.busiest_links) {
    links.push_back({{"link", l.link}, {"bytes", l.bytes.value}, {"utilization", l.utilization}});
  }
  j["busiest_links"] = links;
  const auto& m = r.memory;
  j["memory_gb_per_gpu"] = {{"parameters", m.parameters_gb},      {"gradients", m.gradients_gb},
                            {"optimizer", m.optimizer_gb},        {"activations", m.activations_gb},
                            {"peak_in_flight", m.peak_in_flight}, {"total", m.total_gb()},
                            {"capacity", m.capacity_gb}};
  j["placement"] = r.placement;
  j["network"] = {{"family", r.network.family},
                  {"endpoints", r.network.endpoints},
                  {"switches", r.network.switches},
                  {"switch_links", r.network.switch_links},
                  {"cost_usd", r.network.cost_usd}};
  j["notes"] = r.notes;
  return j;
}

metrics::RunResult run_from_json(const nlohmann::ordered_json& j) {
  using core::Bytes;
  using core::Seconds;
  metrics::RunResult r;
  r.scenario = j.at("scenario").get<std::string>();
  r.step_time = Seconds(j.at("step_time_s").get<double>());
  const auto& b = j.at("breakdown_s");
  r.breakdown = {Seconds(b.at("1F").get<double>()),     Seconds(b.at("1B").get<double>()),
                 Seconds(b.at("1W").get<double>()),     Seconds(b.at("1F1B").get<double>()),
                 Seconds(b.at("bubble").get<double>()), Seconds(b.at("opt").get<double>())};
  r.tokens_per_step = j.at("tokens_per_step").get<double>();
  r.tokens_per_day = j.at("tokens_per_day").get<double>();
  r.tflops_causal = j.at("tflops_causal").get<double>();
  r.tflops_noncausal = j.at("tflops_noncausal").get<double>();
  r.mfu_causal = j.at("mfu_causal").get<double>();
  r.mfu_noncausal = j.at("mfu_noncausal").get<double>();
  for (const auto& [k, v] : j.at("exposed_comm_s").items()) {
    r.exposed_comm[k] = Seconds(v.get<double>());
  }
  r.compute_busy = Seconds(j.at("compute_busy_s").get<double>());
  r.median_pair = Seconds(j.at("fb_pair_s").get<double>());
  r.pairs_measured = j.at("fb_pairs_measured").get<int>();
  r.ib_bytes_per_gpu = Bytes(j.at("ib_bytes_per_gpu").get<double>());
  for (const auto& l : j.at("busiest_links")) {
    r.busiest_links.push_back({l.at("link").get<std::string>(), Bytes(l.at("bytes").get<double>()),
                               l.at("utilization").get<double>()});
  }
  const auto& m = j.at("memory_gb_per_gpu");
  r.memory = {m.at("parameters").get<double>(),  m.at("gradients").get<double>(),
              m.at("optimizer").get<double>(),   m.at("activations").get<double>(),
              m.at("peak_in_flight").get<int>(), m.at("capacity").get<double>()};
  r.placement = j.at("placement").get<std::vector<std::string>>();
  const auto& n = j.at("network");
  r.network = {n.at("family").get<std::string>(), n.at("endpoints").get<long long>(),
               n.at("switches").get<long long>(), n.at("switch_links").get<long long>(),
               n.at("cost_usd").get<double>()};
  r.notes = j.at("notes").get<std::vector<std::string>>();
  return r;
}

std::string run_table(const metrics::RunResult& r) {
  std::string out;
  out += r.scenario + ": step " + fixed(r.step_time.value, 3) + " s, " +
         fixed(r.tokens_per_day / 1e9, 2) + " B tokens/day, " + fixed(r.tflops_causal, 0) +
         " TFLOPS per GPU causal (" + fixed(r.tflops_noncausal, 0) + " non-causal), MFU " +
         fixed(100 * r.mfu_causal, 1) + "% (" + fixed(100 * r.mfu_noncausal, 1) + "%)\n\n";
  using Align = Table::Align;
  Table b({"1F", "1B", "1W", "1F1B", "bubble", "opt", "step"},
          {Align::right, Align::right, Align::right, Align::right, Align::right, Align::right,
           Align::right});
  const auto& d = r.breakdown;
  auto s = [](core::Seconds x) { return fixed(x.value, 3) + " s"; };
  b.add_row({s(d.forward), s(d.backward), s(d.weight), s(d.forward_backward), s(d.bubble),
             s(d.optimizer), s(r.step_time)});
  out += "first pipeline rank:\n" + b.render() + "\n";
  out += "exposed communication (first rank):";
  for (const auto& [k, v] : r.exposed_comm) {
    out += " " + k + " " + fixed(v.value * 1e3, 1) + " ms";
  }
  out += "\n";
  out += "overlapped F&B pair of MoE stages: median " + fixed(r.median_pair.value * 1e3, 1) +
         " ms over " + std::to_string(r.pairs_measured) + " pairs; IB bytes per GPU " +
         fixed(r.ib_bytes_per_gpu.value / 1e9, 1) + " GB per step\n\n";
  Table links({"busiest links", "GB", "utilization"}, {Align::left, Align::right, Align::right});
  for (const auto& l : r.busiest_links) {
    links.add_row({l.link, fixed(l.bytes.value / 1e9, 1), fixed(100 * l.utilization, 1) + "%"});
  }
  out += links.render() + "\n";
  const auto& m = r.memory;
  out += "memory per GPU (first rank): parameters " + fixed(m.parameters_gb, 1) +
         " GB, gradients " + fixed(m.gradients_gb, 1) + " GB, optimizer " +
         fixed(m.optimizer_gb, 1) + " GB, activations " + fixed(m.activations_gb, 1) + " GB (" +
         std::to_string(m.peak_in_flight) +
         " micro-batches in flight) = " + fixed(m.total_gb(), 1) + " of " +
         fixed(m.capacity_gb, 0) + " GB\n\n";
  out += "layers per stage:";
  for (std::size_t i = 0; i < r.placement.size(); ++i) {
    out += (i == 0 ? " " : "; ") + std::to_string(i) + ": " + r.placement[i];
  }
  out += "\n";
  for (const auto& n : r.notes) {
    out += "note: " + n + "\n";
  }
  return out;
}

}  // namespace codesim::report
