// Scenario -> routing spec, DeepEP payload and rates, platform budget.
#include "sim/study/scenario_inputs.hpp"

#include <algorithm>

#include "models/calibration/deepep_trace.hpp"
#include "sim/config/loader.hpp"
#include "sim/core/text.hpp"
#include "sim/engine/platform.hpp"
#include "sim/workload/ep_buffers.hpp"
#include "topologies/properties.hpp"

namespace codesim::study {
namespace {

comm::WireFormat wire_format(config::WirePrecision p) {
  switch (p) {
    case config::WirePrecision::bf16:
      return comm::kBf16Wire;
    case config::WirePrecision::fp8:
      return comm::kFp8Wire;
    case config::WirePrecision::logfmt8:
      return comm::logfmt_wire(8);
    case config::WirePrecision::logfmt10:
      return comm::logfmt_wire(10);
  }
  return comm::kBf16Wire;
}

}  // namespace

comm::EpKernelRates training_ep_rates(const config::Scenario& s) {
  // The trace timed the internode kernels: an EP group over more than one node.
  if (s.software.stack != workload::SoftwareStack::deepseek ||
      s.routing.dispatch != workload::EpMode::deepep_normal ||
      s.parallelism.ep <= s.hardware.spec.gpus_per_node) {
    return {};
  }
  namespace fit = calibration::deepep_trace;
  return {.dispatch = fit::deepep_dispatch_rate,
          .combine = fit::deepep_combine_rate,
          .layout = core::microseconds(fit::deepep_layout_us)};
}

core::Bytes ep_buffers_of(const config::Scenario& s, int tokens_per_rank) {
  const auto& moe = s.model.spec.moe;
  return workload::ep_buffer_bytes({.mode = s.routing.dispatch,
                                    .ep = s.parallelism.ep,
                                    .hidden = s.model.spec.hidden,
                                    .experts = moe ? moe->routed_experts : 0,
                                    .comm_sms = s.hardware.comm_sms,
                                    .tokens_per_rank = tokens_per_rank});
}

comm::EpPayload ep_payload_of(const config::Scenario& s) {
  const auto& p = s.workload.precision;
  if (p.dispatch != config::WirePrecision::fp8 && p.dispatch != config::WirePrecision::bf16) {
    config::scenario_error(s, "workload.precision.dispatch",
                           "dispatch in " + std::string(config::enum_name(p.dispatch)) +
                               " is not modelled (DeepSeek studied LogFMT for combine)",
                           "fp8 or bf16");
  }
  return comm::ep_payload({.hidden = s.model.spec.hidden,
                           .topk = s.model.spec.moe ? s.model.spec.moe->activated_experts : 0,
                           .dispatch = wire_format(p.dispatch),
                           .combine = wire_format(p.combine)});
}

kernels::BatchRoutingSpec routing_spec(const config::Scenario& s, int tokens, int ep,
                                       int redundant) {
  // The synthetic gate's width: routing statistics do not depend on it.
  constexpr int kGateHidden = 256;
  kernels::GateSpec gate = kernels::gate_spec(s.model.spec);
  gate.topk_groups = std::min(s.routing.node_limit, gate.groups);
  const bool perfect = s.routing.balance == workload::Balance::perfect;
  return {
      .gate = gate,
      .hidden = kGateHidden,
      .tokens = tokens,
      .ep = ep,
      .gpus_per_node = s.hardware.spec.gpus_per_node,
      .skew = {.zipf = perfect ? 0.0 : s.routing.skew.zipf, .topics = s.routing.skew.topics},
      .balance_steps = s.routing.balance == workload::Balance::none ? 0 : s.routing.balance_steps,
      .redundant = redundant,
      .seed = static_cast<std::uint64_t>(s.routing.seed)};
}

void check_platform_budget(const config::Scenario& s, const topologies::Topology& t,
                           const Budget& budget) {
  const core::Bytes platform = engine::Platform::estimated_memory(t);
  auto mb = [](core::Bytes b) { return core::megabytes(b.value); };
  if (platform > budget.max_platform_memory) {
    config::scenario_error(s, "hardware.nodes",
                           "the simulated platform would need about " + mb(platform) +
                               " MB for its " + std::to_string(t.vertex_count()) +
                               " GPUs, NICs and switches and " + std::to_string(t.links().size()) +
                               " links, over the budget of " + mb(budget.max_platform_memory) +
                               " MB",
                           "fewer nodes, or raise --max-memory-mb");
  }
}

metrics::NetworkUse network_use(const config::Scenario& s, const topologies::Topology& topology) {
  const auto net = topologies::measure(topology, s.topology.network, s.cost);
  return {net.family, net.counts.endpoints, net.counts.switches, net.counts.switch_links,
          net.cost.total_usd()};
}

metrics::StepEnergy job_step_energy(const config::Scenario& s,
                                    const std::vector<cost::Work>& rank_work,
                                    const std::vector<double>& clock, core::Seconds step,
                                    const metrics::NetworkUse& network, double tokens_per_step) {
  const double gpus = s.gpus();
  return metrics::step_energy(
      rank_work, clock, step, s.hardware.spec.gpu.power,
      {.gpus_per_rank = gpus / static_cast<double>(std::max<std::size_t>(1, rank_work.size())),
       .nics = static_cast<double>(network.endpoints),
       .switches = static_cast<double>(network.switches),
       .nodes = gpus / 8},  // host_power is per 8 GPUs
      s.hardware.facility, tokens_per_step);
}

}  // namespace codesim::study
