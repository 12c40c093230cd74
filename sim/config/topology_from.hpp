// The topology a scenario describes: its network spec over its nodes, failed planes applied.
#pragma once

#include "sim/config/scenario.hpp"
#include "topologies/topology.hpp"
#include "topologies/traffic.hpp"

namespace codesim::config {

topologies::NodeSpec node_spec(const Scenario& s);

// The scenario has been validated, so the spec builds.
topologies::Topology build_topology(const Scenario& s);

// How traffic between switches spreads over equal-cost paths (topology.routing).
topologies::Spread path_spread(const Scenario& s);

}  // namespace codesim::config
