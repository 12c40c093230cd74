// Slim Fly: the McKay-Miller-Siran (MMS) graph of diameter 2 over the prime field GF(q).
#pragma once

#include "topologies/network_spec.hpp"
#include "topologies/topology.hpp"

namespace codesim::topologies {

bool is_prime(int q);

// Routers (s, x, y), s in {0, 1}, x, y in GF(q), indexed s*q*q + x*q + y. With q = 4w + delta
// (delta = +-1 for an odd prime) and xi a primitive element:
//   (0,x,y) ~ (0,x,y') iff y - y' in X;  (1,m,c) ~ (1,m,c') iff c - c' in X';
//   (0,x,y) ~ (1,m,c)  iff y = m x + c.
// delta = +1: X = even powers of xi, X' = odd powers.
// delta = -1: X = {xi^0, xi^2, ..., xi^(2w-2)} u {xi^(2w-1), xi^(2w+1), ..., xi^(4w-3)}, X' = xi X.
// Every router has (3q - delta)/2 router links; 2q^2 routers; diameter 2.
// Returns the router-to-router pairs.
std::vector<std::pair<int, int>> mms_graph_edges(int q);

// The routers built for fewer endpoints than the full 2 q^2 p: ceil(endpoints / p) of them, taken
// row by row, (0, 0, *), (1, 0, *), (0, 1, *), (1, 1, *), ..., so every row built has its partner
// row of the other half and the graph stays connected; links only among built routers. Returns
// their MMS ids in increasing order (endpoints fill them in that order, as at full size) and the
// links indexed by position in it.
struct SlimFlyBuild {
  std::vector<int> routers;
  std::vector<std::pair<int, int>> links;
};
SlimFlyBuild slim_fly_build(int q, long long routers);

// Routers for `endpoints` at p per router, at most the full 2 q^2.
long long slim_fly_routers_needed(int q, int endpoints_per_router, long long endpoints);

// NICs attach p per router in MMS id order; nodes fill routers in that order.
Topology build_slim_fly(const NetworkSpec& s, const NodeSpec& node, int nodes);

}  // namespace codesim::topologies
