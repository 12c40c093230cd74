// `codesim a2a`: one DeepEP dispatch + combine over an EP group, routed by the reference gate and
// timed on the SimGrid platform.
#include <chrono>
#include <nlohmann/json.hpp>
#include <ostream>

#include "models/kernels/batch_routing.hpp"
#include "models/llm/catalog.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/network_flags.hpp"
#include "sim/cli/usage.hpp"
#include "sim/core/error.hpp"
#include "sim/core/quantity_parse.hpp"
#include "sim/core/stopwatch.hpp"
#include "sim/core/text.hpp"
#include "sim/engine/expert_parallel.hpp"
#include "sim/engine/platform.hpp"
#include "sim/report/format.hpp"
#include "sim/report/schema_version.hpp"
#include "sim/report/table.hpp"

namespace codesim::cli {
namespace {

using nlohmann::ordered_json;
using report::fixed;

engine::EpMode mode_of(const std::string& m) {
  if (m == "normal") {
    return engine::EpMode::normal;
  }
  if (m == "direct") {
    return engine::EpMode::direct;
  }
  if (m == "low-latency") {
    return engine::EpMode::low_latency;
  }
  throw_usage_error("a2a", "unknown mode '" + m + "'", "one of: normal, direct, low-latency",
                    "--mode");
}

// 0 for BF16, n for LogFMT-n.
int combine_bits(const std::string& c) {
  if (c == "bf16") {
    return 0;
  }
  if (c.rfind("logfmt-", 0) == 0) {
    try {
      std::size_t used = 0;
      const int bits = std::stoi(c.substr(7), &used);
      if (used == c.size() - 7 && bits >= 4 && bits <= 16) {
        return bits;
      }
    } catch (const std::exception&) {
    }
  }
  throw_usage_error("a2a", "unknown combine format '" + c + "'",
                    "bf16, or logfmt-N with N from 4 to 16", "--combine");
}

// "nvlink gpu3 -> nvswitch0", or what else bounds the transfer.
std::string bound_by(const engine::TransferTiming& t, const topologies::TrafficRouter& r) {
  if (t.alone_bandwidth_time.value <= 0) {
    return "nothing to send";
  }
  if (t.bottleneck < 0) {
    return "SM copy rate";
  }
  return r.describe(t.bottleneck);
}

ordered_json phase_json(const engine::TransferTiming& t, const std::vector<engine::GpuBytes>& sent,
                        const topologies::TrafficRouter& r) {
  double rdma = 0;
  double nvlink = 0;
  double rdma_max = 0;
  double nvlink_max = 0;
  for (const auto& g : sent) {
    rdma += g.rdma.value;
    nvlink += g.nvlink.value;
    rdma_max = std::max(rdma_max, g.rdma.value);
    nvlink_max = std::max(nvlink_max, g.nvlink.value);
  }
  const double n = static_cast<double>(sent.size());
  const double time = (t.end - t.start).value;
  return ordered_json{{"time_us", time * 1e6},
                      {"latency_us", t.latency.value * 1e6},
                      {"bandwidth_time_us", t.alone_bandwidth_time.value * 1e6},
                      {"bound_by", bound_by(t, r)},
                      {"rdma_bytes_per_gpu", rdma / n},
                      {"rdma_bytes_per_gpu_max", rdma_max},
                      {"nvlink_bytes_per_gpu", nvlink / n},
                      {"nvlink_bytes_per_gpu_max", nvlink_max},
                      {"rdma_bandwidth_GBps", time > 0 ? rdma / n / time / 1e9 : 0.0},
                      {"nvlink_bandwidth_GBps", time > 0 ? nvlink / n / time / 1e9 : 0.0}};
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
  report::Table t({"phase", "time (us)", "RDMA MB/GPU", "RDMA GB/s", "NVLink MB/GPU", "NVLink GB/s",
                   "latency (us)", "bound by"},
                  {Align::left, Align::right, Align::right, Align::right, Align::right,
                   Align::right, Align::right, Align::left});
  for (const char* phase : {"dispatch", "combine"}) {
    const auto& p = j[phase];
    t.add_row({phase, fixed(p["time_us"].get<double>(), 1),
               fixed(p["rdma_bytes_per_gpu"].get<double>() / 1e6, 2),
               fixed(p["rdma_bandwidth_GBps"].get<double>(), 1),
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
  const engine::EpMode mode = mode_of(o.mode);
  const int bits = combine_bits(o.combine);
  if (o.dispatch != "fp8" && o.dispatch != "bf16") {
    throw_usage_error("a2a", "unknown dispatch format '" + o.dispatch + "'", "fp8 or bf16",
                      "--dispatch");
  }
  kernels::GateSpec gate = kernels::gate_spec(*preset);
  if (o.ep < 2 || gate.experts % o.ep != 0) {
    throw_usage_error("a2a",
                      "--ep must be at least 2 and divide the model's " +
                          std::to_string(gate.experts) + " routed experts, got " +
                          std::to_string(o.ep),
                      "", "--ep");
  }
  if (o.tokens < 1 || o.gate_hidden < 1 || o.balance_steps < 0 || o.sms < 1) {
    throw_usage_error(
        "a2a", "--tokens, --gate-hidden and --sms must be positive, --balance-steps not negative");
  }
  if (o.topk != 0) {
    if (o.topk < 1 || o.topk > gate.experts) {
      throw_usage_error("a2a", "--topk must be between 1 and " + std::to_string(gate.experts), "",
                        "--topk");
    }
    gate.topk = o.topk;
  }
  if (o.node_limit != 0) {
    if (o.node_limit < 1 || o.node_limit > gate.groups) {
      throw_usage_error("a2a",
                        "--node-limit must be between 1 and the model's " +
                            std::to_string(gate.groups) + " expert groups, got " +
                            std::to_string(o.node_limit),
                        "", "--node-limit");
    }
    gate.topk_groups = o.node_limit;
  }
  if (gate.topk > gate.topk_groups * (gate.experts / gate.groups)) {
    throw_usage_error("a2a", "top-" + std::to_string(gate.topk) + " cannot be met within " +
                                 std::to_string(gate.topk_groups) + " groups of " +
                                 std::to_string(gate.experts / gate.groups) + " experts");
  }
  std::optional<core::BytesPerSecond> cap;
  if (!o.sm_copy_rate.empty()) {
    try {
      cap =
          core::parse_as<core::BytesPerSecond>(o.sm_copy_rate, core::Dimension::bytes_per_second) *
          static_cast<double>(o.sms);
    } catch (const core::UnitError& e) {
      throw_usage_error("a2a", e.what(),
                        std::string(core::unit_examples(core::Dimension::bytes_per_second)),
                        "--sm-copy-rate");
    }
  }
  const int hidden = o.hidden > 0 ? o.hidden : preset->hidden;
  const auto spread = o.spread == "hashed" ? topologies::Spread::hashed : topologies::Spread::even;
  const int per_node = hardware_preset("a2a", o.network.hardware, "--hardware").gpus_per_node;
  const BuiltNetwork net = build_network("a2a", o.network, (o.ep + per_node - 1) / per_node);
  if (net.topology.gpus() < o.ep) {
    throw_usage_error("a2a",
                      "the topology has " + std::to_string(net.topology.gpus()) +
                          " GPUs, fewer than --ep " + std::to_string(o.ep),
                      "", "--nodes");
  }

  const auto routing_start = std::chrono::steady_clock::now();
  const kernels::RoutedBatch batch = kernels::route_batch({.gate = gate,
                                                           .hidden = o.gate_hidden,
                                                           .tokens = o.tokens * o.ep,
                                                           .ep = o.ep,
                                                           .gpus_per_node = per_node,
                                                           .skew = {.zipf = o.zipf},
                                                           .balance_steps = o.balance_steps,
                                                           .seed = o.seed});
  const double routing_seconds = core::seconds_since(routing_start);
  const std::vector<int> gpus = topologies::first_gpus(o.ep);
  const engine::EpPayload payload = engine::ep_payload(
      hidden, gate.topk,
      o.dispatch == "fp8" ? engine::DispatchFormat::fp8 : engine::DispatchFormat::bf16, bits);
  const engine::EpFlows flows = engine::ep_flows(batch.plan, mode, payload, gpus);

  const auto platform_start = std::chrono::steady_clock::now();
  engine::Platform platform(net.topology, spread);
  const double platform_seconds = core::seconds_since(platform_start);
  const auto simulation_start = std::chrono::steady_clock::now();
  const auto timings = platform.run({
      engine::Transfer{.name = "dispatch", .flows = flows.dispatch, .sender_cap = cap},
      engine::Transfer{.name = "combine", .flows = flows.combine, .after = {0}, .sender_cap = cap},
  });
  const double simulation_seconds = core::seconds_since(simulation_start);

  const auto& router = platform.router();
  ordered_json j;
  j["schema_version"] = report::kSchemaVersion;
  j["hardware"] = net.hardware.name;
  j["topology"] = net.name;
  j["nodes"] = net.topology.nodes();
  j["ep"] = o.ep;
  j["tokens_per_gpu"] = o.tokens;
  j["hidden"] = hidden;
  j["topk"] = gate.topk;
  j["node_limit"] = gate.topk_groups;
  j["mode"] = std::string(engine::ep_mode_name(mode));
  j["dispatch_format"] = o.dispatch;
  j["combine_format"] = o.combine;
  j["spread"] = o.spread;
  j["sender_cap_GBps"] = cap ? cap->value / 1e9 : 0.0;
  j["payload_bytes"] = {{"dispatch", payload.dispatch.value}, {"combine", payload.combine.value}};
  j["max_nodes_per_token"] = batch.plan.max_nodes_per_token();
  j["mean_nodes_per_token"] = batch.plan.mean_nodes_per_token();
  j["mean_experts_per_node"] = batch.plan.mean_experts_per_node();
  j["dispatch"] = phase_json(
      timings[0], engine::sent_per_gpu(router, router.loads(flows.dispatch), gpus), router);
  j["combine"] = phase_json(
      timings[1], engine::sent_per_gpu(router, router.loads(flows.combine), gpus), router);
  if (o.bench) {
    j["bench"] = {{"routing_seconds", routing_seconds},
                  {"platform_seconds", platform_seconds},
                  {"simulation_seconds", simulation_seconds},
                  {"peak_rss_MB", peak_rss_mb()}};
  }
  if (o.format == "json") {
    out << j.dump(2) << "\n";
    return;
  }
  print_table(j, out);
}

}  // namespace codesim::cli
