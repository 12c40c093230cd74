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

// The global links of `groups` groups as router pairs (router r of group g is g a + r): the
// group pairs of dragonfly_global_pairs, global port t of a group on its router t / h.
std::vector<std::pair<int, int>> dragonfly_global_links(int groups, int a, int h);

// Groups built for `endpoints`: whole groups of a routers, p endpoints each, at most the spec's.
// With fewer groups than the full g every group still wires its a x h global ports, spread over
// the groups there are (parallel links between a pair of groups; capacity = multiplicity), as a
// partially populated Dragonfly is cabled.
long long dragonfly_groups_needed(const NetworkSpec& s, long long endpoints);

// Router hops between the farthest two routers of `groups` built groups: 1 in one group; 2 when
// every router has a global link to every other group (few groups); 3 otherwise.
int dragonfly_diameter(const NetworkSpec& s, long long groups);

Topology build_dragonfly(const NetworkSpec& s, const NodeSpec& node, int nodes);

}  // namespace codesim::topologies
