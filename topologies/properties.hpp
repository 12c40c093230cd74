// Topology properties: counts, diameter, bisection bandwidth and cost, by closed form for a
// family instance and by measurement on a built graph (the tests check one against the other).
#pragma once

#include <string>

#include "topologies/cost.hpp"
#include "topologies/network_spec.hpp"
#include "topologies/topology.hpp"

namespace codesim::topologies {

struct Properties {
  std::string family;
  Counts counts;
  int diameter = 0;  // switch-to-switch links on the longest shortest endpoint-to-endpoint route
  core::BytesPerSecond bisection;  // one direction, across the worst balanced cut of endpoints
  bool bisection_exact = true;     // false: an estimate (Slim Fly, Dragonfly; see properties.cpp)
  Cost cost;
};

// Closed forms for the network of `s` joining `nodes` nodes (one NIC per GPU).
// Fat trees, MRFT, MPFT: full bisection, E/2 x NIC bandwidth. Slim Fly and Dragonfly: estimates,
// see properties.cpp. A single node: its NVLink bisection, G/2 x NVLink bandwidth.
Properties closed_form(const NetworkSpec& s, const NodeSpec& node, long long nodes,
                       const UnitPrices& prices);

// Counts from the graph; diameter and bisection from the closed forms for its size.
Properties measure(const Topology& t, const NetworkSpec& s, const UnitPrices& prices);

// Measured directly (for tests and small topologies): the diameter by BFS from every switch that
// has endpoints, and the max flow from the first half of the NICs to the second half.
int computed_diameter(const Topology& t);
core::BytesPerSecond computed_halves_cut(const Topology& t);

}  // namespace codesim::topologies
