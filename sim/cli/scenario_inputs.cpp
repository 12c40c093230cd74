// Scenario -> errors, DeepEP mode, payload.
#include "sim/cli/scenario_inputs.hpp"

#include <algorithm>

#include "sim/core/error.hpp"
#include "sim/engine/platform.hpp"
#include "sim/report/format.hpp"

namespace codesim::cli {

[[noreturn]] void scenario_error(const config::Scenario& s, const std::string& key,
                                 const std::string& message, const std::string& hint) {
  throw core::InputError(core::Diagnostic{{s.source_file, 0, 0}, key, message, hint});
}

engine::EpMode ep_mode_of(config::DispatchMode m) {
  switch (m) {
    case config::DispatchMode::deepep_normal:
      return engine::EpMode::normal;
    case config::DispatchMode::direct:
      return engine::EpMode::direct;
    case config::DispatchMode::deepep_low_latency:
      return engine::EpMode::low_latency;
  }
  return engine::EpMode::normal;
}

engine::EpPayload ep_payload_of(const config::Scenario& s) {
  const auto& p = s.workload.precision;
  const int h = s.model.spec.hidden;
  const int topk = s.model.spec.moe ? s.model.spec.moe->activated_experts : 0;
  if (p.dispatch != config::WirePrecision::fp8 && p.dispatch != config::WirePrecision::bf16) {
    scenario_error(s, "workload.precision.dispatch",
                   "dispatch in " + std::string(config::enum_name(p.dispatch)) +
                       " is not modelled (DeepSeek studied LogFMT for combine)",
                   "fp8 or bf16");
  }
  int bits = 0;
  if (p.combine == config::WirePrecision::logfmt8) {
    bits = 8;
  } else if (p.combine == config::WirePrecision::logfmt10) {
    bits = 10;
  }
  engine::EpPayload payload =
      engine::ep_payload(h, topk,
                         p.dispatch == config::WirePrecision::fp8 ? engine::DispatchFormat::fp8
                                                                  : engine::DispatchFormat::bf16,
                         bits);
  if (p.combine == config::WirePrecision::fp8) {
    payload.combine = core::Bytes(h + h / 128.0 * 4);  // FP8 with a scale per 128 channels
  }
  return payload;
}

kernels::BatchRoutingSpec routing_spec(const config::Scenario& s, int tokens, int ep,
                                       int redundant) {
  // The synthetic gate's width: routing statistics do not depend on it.
  constexpr int kGateHidden = 256;
  kernels::GateSpec gate = kernels::gate_spec(s.model.spec);
  gate.topk_groups = std::min(s.routing.node_limit, gate.groups);
  const bool perfect = s.routing.balance == config::Balance::perfect;
  return {.gate = gate,
          .hidden = kGateHidden,
          .tokens = tokens,
          .ep = ep,
          .gpus_per_node = s.hardware.spec.gpus_per_node,
          .skew = {.zipf = perfect ? 0.0 : s.routing.skew.zipf, .topics = s.routing.skew.topics},
          .balance_steps = s.routing.balance == config::Balance::none ? 0 : s.routing.balance_steps,
          .redundant = redundant,
          .seed = static_cast<std::uint64_t>(s.routing.seed)};
}

void check_platform_budget(const config::Scenario& s, const topologies::Topology& t,
                           double max_memory_mb) {
  const double platform_mb = engine::Platform::estimated_memory(t).value / 1e6;
  if (platform_mb > max_memory_mb) {
    scenario_error(s, "hardware.nodes",
                   "the simulated platform would need about " + report::fixed(platform_mb, 0) +
                       " MB (SimGrid's routing table grows with the square of the " +
                       std::to_string(t.vertex_count()) +
                       " GPUs, NICs and switches), over the budget of " +
                       report::fixed(max_memory_mb, 0) + " MB",
                   "fewer nodes, or raise --max-memory-mb");
  }
}

}  // namespace codesim::cli
