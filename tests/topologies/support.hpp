// Shared fixtures for topology tests: an H800-like node and a few family specs.
#pragma once

#include <utility>
#include <vector>

#include "topologies/network_spec.hpp"
#include "topologies/topology.hpp"

namespace codesim::topologies::testing {

inline NodeSpec h800_node(int gpus_per_node = 8) {
  return NodeSpec{.gpus_per_node = gpus_per_node,
                  .nvlink_bandwidth = core::BytesPerSecond(160e9),
                  .nvlink_latency = core::Seconds(3.33e-6),
                  .pcie_bandwidth = core::BytesPerSecond(64e9),
                  .nic_bandwidth = core::BytesPerSecond(50e9),
                  .nic_latency = core::Seconds(2.8e-6),
                  .switch_latency = core::Seconds(0.45e-6)};
}

// One small instance of every family (and MPFT's two plane-crossing rules), with its nodes.
inline std::vector<std::pair<NetworkSpec, int>> small_instances() {
  return {{{.family = Family::node}, 1},
          {{.family = Family::ft2, .radix = 8}, 4},
          {{.family = Family::ft3, .radix = 8}, 16},
          {{.family = Family::mrft, .radix = 8}, 4},
          {{.family = Family::mpft, .radix = 8, .planes = 8}, 16},
          {{.family = Family::mpft,
            .radix = 8,
            .planes = 8,
            .plane_crossing = PlaneCrossing::at_destination},
           16},
          {{.family = Family::slimfly, .slimfly_q = 5, .endpoints_per_router = 4}, 25},
          {{.family = Family::dragonfly,
            .endpoints_per_router = 2,
            .dragonfly_a = 4,
            .dragonfly_h = 2,
            .dragonfly_groups = 9},
           9}};
}

}  // namespace codesim::topologies::testing
