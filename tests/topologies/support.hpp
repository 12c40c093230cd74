// Shared fixtures for topology tests: an H800-like node and a few family specs.
#pragma once

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

}  // namespace codesim::topologies::testing
