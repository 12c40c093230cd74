// What run's training and inference paths both take from a scenario: its errors (located at the
// file), the routing of tokens, the DeepEP mode and the bytes per token on the wire.
#pragma once

#include <string>

#include "models/kernels/batch_routing.hpp"
#include "sim/config/scenario.hpp"
#include "sim/engine/expert_parallel.hpp"
#include "topologies/topology.hpp"

namespace codesim::cli {

// Throws core::InputError located at the scenario file, with `key`.
[[noreturn]] void scenario_error(const config::Scenario& s, const std::string& key,
                                 const std::string& message, const std::string& hint = {});

// Refuses (a scenario error) a topology whose SimGrid platform would need more than
// `max_memory_mb`, before it is built.
void check_platform_budget(const config::Scenario& s, const topologies::Topology& t,
                           double max_memory_mb);

engine::EpMode ep_mode_of(config::DispatchMode m);

// The reference gate's routing of `tokens` over an EP group of `ep` GPUs as the scenario's routing
// section says (node limit, skew, balancing, seed), with `redundant` EPLB replicas.
kernels::BatchRoutingSpec routing_spec(const config::Scenario& s, int tokens, int ep,
                                       int redundant);

// Dispatch and combine bytes per token from workload.precision; LogFMT dispatch is refused.
engine::EpPayload ep_payload_of(const config::Scenario& s);

}  // namespace codesim::cli
