// Shared fixtures for topology tests: an H800-like node and a few family specs.
#pragma once

#include <utility>
#include <vector>

#include "models/hardware/catalog.hpp"
#include "topologies/family.hpp"
#include "topologies/topology.hpp"

namespace codesim::topologies::testing {

// The h800 preset's node; its switch latency as the shipped cluster preset derives it from the
// NIC latencies ISCA 2025 measured: (3.7 us across leaves - 2.8 us on one leaf) / 2.
inline NodeSpec h800_node(int gpus_per_node = 8) {
  const hardware::HardwareSpec h800 = *hardware::find_preset("h800");
  NodeSpec node =
      node_spec_from(h800, (h800.nic.latency_cross_leaf - h800.nic.latency_same_leaf) / 2.0);
  node.gpus_per_node = gpus_per_node;
  return node;
}

// The h800 node, for formulas in tests.
inline const NodeSpec kH800 = h800_node();

// A NIC-to-NIC path through two leaves and a spine: the NIC latency and two switch hops.
inline double cross_leaf_latency(const NodeSpec& n) {
  return (n.nic_latency + n.switch_latency * 2.0).value;
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
