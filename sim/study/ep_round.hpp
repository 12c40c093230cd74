// One expert-parallel round: a micro-batch routed by the reference gate, its dispatch and then
// its combine timed on the SimGrid platform (codesim a2a; inference steps).
#pragma once

#include <optional>
#include <string>

#include "models/kernels/batch_routing.hpp"
#include "sim/comm/expert_parallel.hpp"
#include "topologies/topology.hpp"
#include "topologies/traffic.hpp"

namespace codesim::study {

// The engine's payload vocabulary, for callers that describe a round.
using comm::ep_payload;
using comm::EpPayload;
using comm::kBf16Wire;
using comm::kFp8Wire;
using comm::logfmt_wire;
using comm::WireFormat;

struct EpRoundSpec {
  kernels::BatchRoutingSpec routing;  // routing.ep GPUs: the topology's first ones
  workload::EpMode mode = workload::EpMode::deepep_normal;
  comm::EpPayload payload;
  std::optional<core::BytesPerSecond> sender_cap;  // what one GPU may send (comm SMs x copy rate)
  int sms = 20;  // SMs the kernels hold (DeepEP's normal kernels forward with half of them)
  topologies::Spread spread = topologies::Spread::even;
};

// One transfer of the round.
struct EpPhase {
  core::Seconds time;
  core::Seconds latency;
  core::Seconds fixed_cost;      // the kernel's (hardware::CommCosts)
  core::Seconds bandwidth_time;  // alone on the network, without latency
  std::string bound_by;          // the link that ends it, "SM copy rate", or "nothing to send"
  core::Bytes rdma_per_gpu;      // mean over the EP group, and the largest
  core::Bytes rdma_max;
  core::Bytes nvlink_per_gpu;
  core::Bytes nvlink_max;
  // DeepEP's own accounting (its tests' "RDMA bandwidth" = these bytes / time), mean per GPU:
  // normal kernels count a token once per chosen node, its own node included (whose share never
  // touches a NIC); low-latency kernels once per chosen expert, its own GPU's included.
  core::Bytes deepep_rdma_per_gpu;
};

struct EpRound {
  kernels::RoutedBatch batch;
  EpPhase dispatch;
  EpPhase combine;
  core::Seconds routing_time;  // wall clock of the study's parts (--bench)
  core::Seconds platform_time;
  core::Seconds simulation_time;
};

// Throws std::invalid_argument when the routing cannot be done (ep does not divide the experts,
// EPLB constraints) or the topology has fewer GPUs than the EP group.
EpRound simulate_ep_round(const topologies::Topology& topology, const EpRoundSpec& spec);

}  // namespace codesim::study
