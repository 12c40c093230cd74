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
#pragma once

#include "topologies/network_spec.hpp"
#include "topologies/topology.hpp"

namespace codesim::topologies {

// Spines of a two-layer tree of `leaves` leaves of radix k, each with k/2 uplinks: none for one
// leaf; else the fewest that take leaves x k/2 uplinks with each leaf's share of a spine's ports
// (ceil(k/2 / spines) links) fitting its k ports; k/2 for k/2 leaves or more.
long long two_layer_spines(long long leaves, long long radix);

Topology build_single_node(const NodeSpec& node);
Topology build_fat_tree_2(const NetworkSpec& s, const NodeSpec& node, int nodes);
Topology build_fat_tree_3(const NetworkSpec& s, const NodeSpec& node, int nodes);
Topology build_multi_rail_fat_tree(const NetworkSpec& s, const NodeSpec& node, int nodes);
Topology build_multi_plane_fat_tree(const NetworkSpec& s, const NodeSpec& node, int nodes);

}  // namespace codesim::topologies
