// Route -> flows -> dispatch then combine on the platform -> bytes per GPU.
#include "sim/core/error.hpp"
#include "sim/study/ep_round.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "sim/core/stopwatch.hpp"
#include "sim/engine/platform.hpp"

namespace codesim::study {
namespace {

std::string bound_by(const comm::TransferTiming& t, const topologies::TrafficRouter& r) {
  if (t.alone_bandwidth_time.value <= 0) {
    return "nothing to send";
  }
  if (t.bottleneck < 0) {
    return "SM copy rate";
  }
  return r.describe(t.bottleneck);
}

EpPhase phase(const comm::TransferTiming& t, const std::vector<comm::GpuBytes>& sent,
              const topologies::TrafficRouter& r) {
  EpPhase p{.time = t.end - t.start,
            .latency = t.latency,
            .bandwidth_time = t.alone_bandwidth_time,
            .bound_by = bound_by(t, r)};
  for (const auto& g : sent) {
    p.rdma_per_gpu += g.rdma;
    p.nvlink_per_gpu += g.nvlink;
    p.rdma_max = std::max(p.rdma_max, g.rdma);
    p.nvlink_max = std::max(p.nvlink_max, g.nvlink);
  }
  const double n = std::max<double>(1, static_cast<double>(sent.size()));
  p.rdma_per_gpu = p.rdma_per_gpu / n;
  p.nvlink_per_gpu = p.nvlink_per_gpu / n;
  return p;
}

// The messages per GPU DeepEP's accounting counts (EpPhase::deepep_rdma_per_gpu: these times a
// token's payload).
double deepep_messages_per_gpu(const kernels::RoutingPlan& plan, workload::EpMode mode) {
  double messages = 0;
  for (int t = 0; t < plan.tokens; ++t) {
    switch (mode) {
      case workload::EpMode::deepep_normal:
        messages += static_cast<double>(plan.nodes[static_cast<std::size_t>(t)].size());
        break;
      case workload::EpMode::direct:
        messages += static_cast<double>(plan.gpus[static_cast<std::size_t>(t)].size());
        break;
      case workload::EpMode::deepep_low_latency:
      case workload::EpMode::deepep_low_latency_nvlink:
        messages += plan.topk;
        break;
    }
  }
  return messages / plan.ep;
}

}  // namespace

EpRound simulate_ep_round(const topologies::Topology& topology, const EpRoundSpec& spec) {
  const int ep = spec.routing.ep;
  if (topology.gpus() < ep) {
    throw core::KeyedError("parallelism.ep", "the topology has " + std::to_string(topology.gpus()) +
                                                 " GPUs, fewer than the EP group's " +
                                                 std::to_string(ep));
  }
  EpRound round;
  const auto routing_start = std::chrono::steady_clock::now();
  round.batch = kernels::route_batch(spec.routing);
  round.routing_time = core::Seconds(core::seconds_since(routing_start));
  const std::vector<int> gpus = topologies::first_gpus(ep);
  const comm::EpFlows flows = comm::ep_flows(round.batch.plan, spec.mode, spec.payload, gpus);

  const auto platform_start = std::chrono::steady_clock::now();
  engine::Platform platform(topology, spec.spread);
  round.platform_time = core::Seconds(core::seconds_since(platform_start));
  const auto simulation_start = std::chrono::steady_clock::now();
  const auto cap = spec.sender_cap;
  std::vector<comm::Transfer> transfers{
      comm::Transfer{.name = "dispatch", .flows = flows.dispatch, .sender_cap = cap},
      comm::Transfer{.name = "combine", .flows = flows.combine, .after = {0}, .sender_cap = cap},
  };
  comm::add_ep_costs(transfers[0], spec.mode, topology.node_spec(), spec.sms,
                     spec.payload.dispatch);
  comm::add_ep_costs(transfers[1], spec.mode, topology.node_spec(), spec.sms, spec.payload.combine);
  const auto timings = platform.run(transfers);
  round.simulation_time = core::Seconds(core::seconds_since(simulation_start));
  const auto& router = platform.router();
  round.dispatch =
      phase(timings[0], comm::sent_per_gpu(router, router.loads(flows.dispatch), gpus), router);
  round.combine =
      phase(timings[1], comm::sent_per_gpu(router, router.loads(flows.combine), gpus), router);
  round.dispatch.fixed_cost = transfers[0].calls.front().fixed_cost;
  round.combine.fixed_cost = transfers[1].calls.front().fixed_cost;
  const double counted = deepep_messages_per_gpu(round.batch.plan, spec.mode);
  round.dispatch.deepep_rdma_per_gpu = spec.payload.dispatch * counted;
  round.combine.deepep_rdma_per_gpu = spec.payload.combine * counted;
  return round;
}

}  // namespace codesim::study
