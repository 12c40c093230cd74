// Dragonfly: g groups of a routers; routers of a group fully connected by local links; each router
// has h global links; p endpoints per router. With g <= a h + 1 every pair of groups is joined
// directly, so minimal routes are local-global-local (diameter 3 in router hops).
#pragma once

#include "topologies/network_spec.hpp"
#include "topologies/topology.hpp"

namespace codesim::topologies {

// Global links as group pairs, spread evenly: offset d = 1, 2, ... joins group i to i + d
// (mod g), cycling through offsets until every group's a x h global ports are used.
std::vector<std::pair<int, int>> dragonfly_global_pairs(int groups, int ports_per_group);

Topology build_dragonfly(const NetworkSpec& s, const NodeSpec& node, int nodes);

}  // namespace codesim::topologies
