// `codesim a2a`: one DeepEP dispatch + combine over an EP group, routed by the reference gate and
// timed on the SimGrid platform.
#include <nlohmann/json.hpp>
#include <ostream>

#include "models/kernels/batch_routing.hpp"
#include "models/llm/catalog.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/gate_flags.hpp"
#include "sim/cli/network_flags.hpp"
#include "sim/cli/usage.hpp"
#include "sim/core/error.hpp"
#include "sim/core/quantity_parse.hpp"
#include "sim/core/stopwatch.hpp"
#include "sim/core/text.hpp"
#include "sim/report/format.hpp"
#include "sim/report/schema_version.hpp"
#include "sim/report/table.hpp"
#include "sim/study/ep_round.hpp"

namespace codesim::cli {
namespace {

using nlohmann::ordered_json;
using report::fixed;

workload::EpMode mode_of(const std::string& m) {
  for (const auto& [mode, name] : workload::kEpModeNames) {
    if (m == name) {
      return mode;
    }
  }
  throw_usage_error("a2a", "unknown mode '" + m + "'",
                    "one of: deepep-normal, direct, deepep-low-latency, deepep-low-latency-nvlink",
                    "--mode");
}

study::WireFormat combine_format(const std::string& c) {
  if (c == "bf16") {
    return study::kBf16Wire;
  }
  if (c.rfind("logfmt-", 0) == 0) {
    try {
      std::size_t used = 0;
      const int bits = std::stoi(c.substr(7), &used);
      if (used == c.size() - 7 && bits >= 4 && bits <= 16) {
        return study::logfmt_wire(bits);
      }
    } catch (const std::exception&) {
    }
  }
  throw_usage_error("a2a", "unknown combine format '" + c + "'",
                    "bf16, or logfmt-N with N from 4 to 16", "--combine");
}

ordered_json phase_json(const study::EpPhase& p) {
  const double time = p.time.value;
  return ordered_json{
      {"time_us", time * 1e6},
      {"latency_us", p.latency.value * 1e6},
      {"fixed_cost_us", p.fixed_cost.value * 1e6},
      {"bandwidth_time_us", p.bandwidth_time.value * 1e6},
      {"bound_by", p.bound_by},
      {"rdma_bytes_per_gpu", p.rdma_per_gpu.value},
      {"rdma_bytes_per_gpu_max", p.rdma_max.value},
      {"nvlink_bytes_per_gpu", p.nvlink_per_gpu.value},
      {"nvlink_bytes_per_gpu_max", p.nvlink_max.value},
      {"rdma_bandwidth_GBps", time > 0 ? p.rdma_per_gpu.value / time / 1e9 : 0.0},
      {"deepep_rdma_bytes_per_gpu", p.deepep_rdma_per_gpu.value},
      {"deepep_rdma_bandwidth_GBps", time > 0 ? p.deepep_rdma_per_gpu.value / time / 1e9 : 0.0},
      {"nvlink_bandwidth_GBps", time > 0 ? p.nvlink_per_gpu.value / time / 1e9 : 0.0}};
}

void print_table(const ordered_json& j, std::ostream& out) {
  out << "EP" << j["ep"].get<int>() << " " << j["mode"].get<std::string>() << " on "
      << j["topology"].get<std::string>() << " (" << j["nodes"].get<int>() << " nodes of "
      << j["hardware"].get<std::string>() << "), " << j["tokens_per_gpu"].get<int>()
      << " tokens per GPU, top-" << j["topk"].get<int>() << ", node limit "
      << j["node_limit"].get<int>() << "\n";
  out << "payload per token: dispatch " << fixed(j["payload_bytes"]["dispatch"].get<double>(), 0)
      << " B (" << j["dispatch_format"].get<std::string>() << "), combine "
      << fixed(j["payload_bytes"]["combine"].get<double>(), 0) << " B ("
      << j["combine_format"].get<std::string>() << "); nodes per token: max "
      << j["max_nodes_per_token"].get<int>() << ", mean "
      << fixed(j["mean_nodes_per_token"].get<double>(), 2) << "\n";
  using Align = report::Table::Align;
  report::Table t({"phase", "time (us)", "RDMA MB/GPU", "RDMA GB/s", "DeepEP's RDMA GB/s",
                   "NVLink MB/GPU", "NVLink GB/s", "latency (us)", "bound by"},
                  {Align::left, Align::right, Align::right, Align::right, Align::right,
                   Align::right, Align::right, Align::right, Align::left});
  for (const char* phase : {"dispatch", "combine"}) {
    const auto& p = j[phase];
    t.add_row({phase, fixed(p["time_us"].get<double>(), 1),
               fixed(p["rdma_bytes_per_gpu"].get<double>() / 1e6, 2),
               fixed(p["rdma_bandwidth_GBps"].get<double>(), 1),
               fixed(p["deepep_rdma_bandwidth_GBps"].get<double>(), 1),
               fixed(p["nvlink_bytes_per_gpu"].get<double>() / 1e6, 2),
               fixed(p["nvlink_bandwidth_GBps"].get<double>(), 1),
               fixed(p["latency_us"].get<double>(), 2), p["bound_by"].get<std::string>()});
  }
  out << t.render();
  if (j.contains("bench")) {
    const auto& b = j["bench"];
    out << "bench: routing " << fixed(b["routing_seconds"].get<double>(), 3) << " s, platform "
        << fixed(b["platform_seconds"].get<double>(), 3) << " s, simulation "
        << fixed(b["simulation_seconds"].get<double>(), 3) << " s, peak memory "
        << fixed(b["peak_rss_MB"].get<double>(), 0) << " MB\n";
  }
}

// The gate of the flags' model with --topk and --node-limit applied, checked.
kernels::GateSpec gate_of(const A2aOptions& o, const llm::LlmSpec& model) {
  kernels::GateSpec gate = kernels::gate_spec(model);
  if (o.ep < 2 || gate.experts % o.ep != 0) {
    throw_usage_error("a2a",
                      "--ep must be at least 2 and divide the model's " +
                          std::to_string(gate.experts) + " routed experts, got " +
                          std::to_string(o.ep),
                      "", "--ep");
  }
  if (o.topk != 0) {
    if (o.topk < 1 || o.topk > gate.experts) {
      throw_usage_error("a2a", "--topk must be between 1 and " + std::to_string(gate.experts), "",
                        "--topk");
    }
    gate.topk = o.topk;
  }
  apply_node_limit(gate, o.node_limit, "a2a");
  if (gate.topk > gate.topk_groups * (gate.experts / gate.groups)) {
    throw_usage_error("a2a", "top-" + std::to_string(gate.topk) + " cannot be met within " +
                                 std::to_string(gate.topk_groups) + " groups of " +
                                 std::to_string(gate.experts / gate.groups) + " experts");
  }
  return gate;
}

// --sm-copy-rate x --sms, or no cap.
std::optional<core::BytesPerSecond> sender_cap_of(const A2aOptions& o) {
  if (o.sm_copy_rate.empty()) {
    return std::nullopt;
  }
  try {
    return core::parse_as<core::BytesPerSecond>(o.sm_copy_rate, core::Dimension::bytes_per_second) *
           static_cast<double>(o.sms);
  } catch (const core::UnitError& e) {
    throw_usage_error("a2a", e.what(),
                      std::string(core::unit_examples(core::Dimension::bytes_per_second)),
                      "--sm-copy-rate");
  }
}

// The round as the flags describe it, on GPUs of `per_node` per node.
study::EpRoundSpec round_spec(const A2aOptions& o, const llm::LlmSpec& model, int per_node) {
  if (o.dispatch != "fp8" && o.dispatch != "bf16") {
    throw_usage_error("a2a", "unknown dispatch format '" + o.dispatch + "'", "fp8 or bf16",
                      "--dispatch");
  }
  if (o.tokens < 1 || o.gate_hidden < 1 || o.balance_steps < 0 || o.sms < 1) {
    throw_usage_error(
        "a2a", "--tokens, --gate-hidden and --sms must be positive, --balance-steps not negative");
  }
  const kernels::GateSpec gate = gate_of(o, model);
  return {.routing = {.gate = gate,
                      .hidden = o.gate_hidden,
                      .tokens = o.tokens * o.ep,
                      .ep = o.ep,
                      .gpus_per_node = per_node,
                      .skew = {.zipf = o.zipf, .strength = o.strength},
                      .balance_steps = o.balance_steps,
                      .seed = o.seed},
          .mode = mode_of(o.mode),
          .payload = study::ep_payload(
              {.hidden = o.hidden > 0 ? o.hidden : model.hidden,
               .topk = gate.topk,
               .dispatch = o.dispatch == "fp8" ? study::kFp8Wire : study::kBf16Wire,
               .combine = combine_format(o.combine)}),
          .sender_cap = sender_cap_of(o),
          .sms = o.sms,
          .spread = spread_of("a2a", o.spread)};
}

ordered_json round_json(const A2aOptions& o, const BuiltNetwork& net,
                        const study::EpRoundSpec& spec, const study::EpRound& round, int hidden) {
  const auto& plan = round.batch.plan;
  ordered_json j;
  j["schema_version"] = report::kSchemaVersion;
  j["hardware"] = net.hardware.name;
  j["topology"] = net.name;
  j["nodes"] = net.topology.nodes();
  j["ep"] = o.ep;
  j["tokens_per_gpu"] = o.tokens;
  j["hidden"] = hidden;
  j["topk"] = spec.routing.gate.topk;
  j["node_limit"] = spec.routing.gate.topk_groups;
  j["mode"] = std::string(workload::ep_mode_name(spec.mode));
  j["dispatch_format"] = o.dispatch;
  j["combine_format"] = o.combine;
  j["spread"] = o.spread;
  j["sender_cap_GBps"] = spec.sender_cap ? spec.sender_cap->value / 1e9 : 0.0;
  j["payload_bytes"] = {{"dispatch", spec.payload.dispatch.value},
                        {"combine", spec.payload.combine.value}};
  j["max_nodes_per_token"] = plan.max_nodes_per_token();
  j["mean_nodes_per_token"] = plan.mean_nodes_per_token();
  j["mean_experts_per_node"] = plan.mean_experts_per_node();
  // The DeepEP terms the round is priced with (the hardware preset's; fitted by
  // tools/calibration/fit_deepep_kernels.py from this very output).
  const hardware::CommCosts& k = net.hardware.comm;
  j["ep_costs"] = {
      {"call_us", k.ep_call.value * 1e6},
      {"low_latency_call_us", k.ep_low_latency_call.value * 1e6},
      {"low_latency_nvlink_message_us", k.ep_low_latency_nvlink_message.value * 1e6},
      {"forward_rate_per_sm_GBps", k.ep_forward_rate_per_sm.value / 1e9},
      {"low_latency_rate", k.ep_low_latency_rate},
      {"nic_small_message_efficiency", net.hardware.nic.small_message_efficiency}};
  j["dispatch"] = phase_json(round.dispatch);
  j["combine"] = phase_json(round.combine);
  if (o.bench) {
    j["bench"] = {{"routing_seconds", round.routing_time.value},
                  {"platform_seconds", round.platform_time.value},
                  {"simulation_seconds", round.simulation_time.value},
                  {"peak_rss_MB", core::peak_resident_mb()}};
  }
  return j;
}

}  // namespace

void run_a2a(const A2aOptions& o, std::ostream& out) {
  const auto preset = llm::find_preset(o.model);
  if (!preset) {
    throw_usage_error("a2a", "unknown model '" + o.model + "'",
                      "one of: " + core::join(llm::preset_names(), ", "), "--model");
  }
  if (!preset->moe) {
    throw_usage_error("a2a", preset->name + " is a dense model: it has no experts", "", "--model");
  }
  const int per_node = hardware_preset("a2a", o.network.hardware, "--gpu").gpus_per_node;
  const study::EpRoundSpec spec = round_spec(o, *preset, per_node);
  const BuiltNetwork net = build_network("a2a", o.network, (o.ep + per_node - 1) / per_node);
  if (net.topology.gpus() < o.ep) {
    throw_usage_error("a2a",
                      "the topology has " + std::to_string(net.topology.gpus()) +
                          " GPUs, fewer than --ep " + std::to_string(o.ep),
                      "", "--nodes");
  }
  const study::EpRound round = [&] {
    try {
      return study::simulate_ep_round(net.topology, spec);
    } catch (const std::invalid_argument& e) {
      throw_usage_error("a2a", e.what());
    }
  }();
  const ordered_json j = round_json(o, net, spec, round, o.hidden > 0 ? o.hidden : preset->hidden);
  if (o.format == report::Format::json) {
    out << j.dump(2) << "\n";
    return;
  }
  print_table(j, out);
}

}  // namespace codesim::cli
