// Fat-tree families of radix k:
//
//  FT2:  k/2 spines                        FT3:  (k/2)^2 cores
//        k leaves, k/2 down + k/2 up             k pods of k/2 aggregation + k/2 edge switches
//        k^2/2 endpoints                         k^3/4 endpoints
//
//  MRFT: an FT2 whose leaves each serve one rail (GPU index) of k/2 nodes; rails meet at spines.
//  MPFT: P planes, each its own FT2; GPU i's NIC sits in plane i.
//
// Smaller clusters populate leaves (FT2) or pods (FT3) in order. A two-layer tree is built for
// its leaves (FT2, MRFT, each MPFT plane): each leaf's k/2 uplinks spread over as few spines as
// carry them, with parallel links (capacity = multiplicity) where a leaf has more uplinks than
// there are spines; one leaf needs no spine. FT3's cores are built the same way for its pods:
// aggregation switch j of every pod and core group j form such a two-layer tree (no cores for
// one pod). Pods are built whole (k/2 edge and k/2 aggregation switches).
//
// Oversubscription 1:R (NetworkSpec::oversubscription) thins the top tier: a two-layer tree's
// leaf takes d endpoints and ceil(d / R) uplinks, the most d that fit its k ports (R = 7, k = 64:
// 56 down, 8 up); FT3's aggregation switch keeps k/2 down and takes ceil(k/2 / R) uplinks (R = 7:
// 5). Fewer uplinks, fewer spines or cores.
#pragma once

#include "topologies/network_spec.hpp"
#include "topologies/topology.hpp"

namespace codesim::topologies {

// Ports of a leaf of a two-layer tree at 1:R: endpoints (down) and uplinks (up).
struct LeafPorts {
  int down = 0;
  int up = 0;
};
LeafPorts leaf_ports(int radix, int oversubscription);
// Uplinks of an FT3 aggregation switch at 1:R: ceil(k/2 / R).
int aggregation_uplinks(int radix, int oversubscription);

// Spines of a two-layer tree of `leaves` leaves of radix k, each with `up` uplinks: none for one
// leaf; else the fewest that take leaves x up uplinks with each leaf's share of a spine's ports
// (ceil(up / spines) links) fitting its k ports; `up` for k leaves' worth or more.
long long two_layer_spines(long long leaves, long long radix, long long up);

Topology build_single_node(const NodeSpec& node);
Topology build_fat_tree_2(const NetworkSpec& s, const NodeSpec& node, int nodes);
Topology build_fat_tree_3(const NetworkSpec& s, const NodeSpec& node, int nodes);
Topology build_multi_rail_fat_tree(const NetworkSpec& s, const NodeSpec& node, int nodes);
Topology build_multi_plane_fat_tree(const NetworkSpec& s, const NodeSpec& node, int nodes);

}  // namespace codesim::topologies
