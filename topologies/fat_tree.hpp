// Fat-tree families of radix k:
//
//  FT2:  k/2 spines                        FT3:  (k/2)^2 cores
//        k leaves, k/2 down + k/2 up             k pods of k/2 aggregation + k/2 edge switches
//        k^2/2 endpoints                         k^3/4 endpoints
//
//  MRFT: an FT2 whose leaves each serve one rail (GPU index) of k/2 nodes; rails meet at spines.
//        Beyond what one such tree takes (rails x leaves per rail > k), three tiers: FT3's pods
//        and cores, each pod's k/2 leaves split among the rails (k/2 / rails leaves per rail, k/2
//        nodes each), up to k^3/4 endpoints.
//  MPFT: P planes, each its own FT2; GPU i's NIC sits in plane i.
//
// Smaller clusters populate leaves (FT2) or pods (FT3) in order. A two-layer tree is built for
// its leaves (FT2, MRFT, each MPFT plane): each leaf's k/2 uplinks spread over as few spines as
// carry them, with parallel links (capacity = multiplicity) where a leaf has more uplinks than
// there are spines; one leaf needs no spine. FT3's cores are built the same way for its pods:
// aggregation switch j of every pod and core group j form such a two-layer tree (no cores for
// one pod). A pod has k/2 edge and k/2 aggregation switches; the last one only the edge switches
// its endpoints need and as many aggregation switches (each edge's k/2 uplinks spread over them),
// so a pod's uplinks still match its endpoints.
//
// Oversubscription 1:R (NetworkSpec::oversubscription) thins the top tier: a two-layer tree's
// leaf takes d endpoints and ceil(d / R) uplinks, the most d that fit its k ports (R = 7, k = 64:
// 56 down, 8 up); FT3's aggregation switch keeps k/2 down and takes ceil(k/2 / R) uplinks (R = 7:
// 5). Fewer uplinks, fewer spines or cores.
#pragma once

#include <vector>

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

// Links between leaf l and spine s of a two-layer tree of `spines` spines whose leaves have `up`
// uplinks each: up / spines, one more on the up % spines spines from s = l (mod spines) on, so
// that the leaves' extra links land on different spines.
int two_layer_links(long long leaf, long long spine, long long spines, long long up);

// Spines of a two-layer tree of `leaves` leaves of radix k, each with `up` uplinks: none for one
// leaf; else the fewest whose k ports take every leaf's links (two_layer_links); `up` for k
// leaves' worth or more.
long long two_layer_spines(long long leaves, long long radix, long long up);
// The same for leaves with links[l] uplinks each (none for fewer than two leaves with links).
long long group_spines(const std::vector<long long>& links, long long radix);

Topology build_single_node(const NodeSpec& node);
Topology build_fat_tree_2(const NetworkSpec& s, const NodeSpec& node, int nodes);
Topology build_fat_tree_3(const NetworkSpec& s, const NodeSpec& node, int nodes);
// Edge switches per pod (as many aggregation switches) and core switches per core group of a
// three-tier build. Pod p uses pod_uplinks(p) aggregation uplinks: all of them (edges x
// `uplinks`), or what the other pods can take (two pods, one partial: the whole one needs no
// more than the partial one has). Its uplinks, numbered aggregation switch by aggregation switch,
// are split over the k/2 core groups in order (group_links): a whole pod's aggregation switch j
// feeds group j, as in the textbook k-ary fat tree, and a partial pod's uplinks reach every
// group. (When a partial pod reached only the groups of its own aggregation indices, the max
// flow between the endpoints' halves fell to 2/3 of them.) Core group g is a two-layer tree over
// the pods' links into it (two_layer_links, pod by pod), as few cores as take them; none when one
// pod alone has links there.
struct ThreeTierShape {
  std::vector<int> edges;
  std::vector<int> cores;  // per group
  int uplinks = 0;         // per aggregation switch of a pod that uses them all
  // One pod of one edge switch: no aggregation switch to build.
  bool single_switch() const { return edges.size() == 1 && edges.front() == 1; }
  int groups() const { return static_cast<int>(cores.size()); }
  long long pod_uplinks(int pod) const;
  // Uplinks of `pod` into core group g: n with floor(n x k/2 / pod_uplinks) = g, from
  // first_in_group on.
  long long group_links(int pod, int group) const;
  long long first_in_group(int pod, int group) const;
  // The aggregation switch of `pod` that its uplink n leaves from: floor(n x edges / pod_uplinks).
  int aggregation_of(int pod, long long n) const;
  // Aggregation-to-core links built (those into groups that have cores).
  long long core_links() const;
};
ThreeTierShape three_tier_shape(std::vector<int> pod_edges, int radix, int oversubscription);
// FT3: pods of (k/2)^2 endpoints, the last with the edges its endpoints need.
ThreeTierShape ft3_shape(const NetworkSpec& s, long long endpoints);
// Three-tier MRFT: pods of (k/2)^2 / rails nodes, the last with as many leaves per rail as its
// nodes need.
ThreeTierShape mrft_shape(const NetworkSpec& s, int gpus_per_node, long long nodes);

// Whether an MRFT of `nodes` needs the three-tier build.
bool mrft_three_tier(const NetworkSpec& s, int gpus_per_node, int nodes);

Topology build_multi_rail_fat_tree(const NetworkSpec& s, const NodeSpec& node, int nodes);
Topology build_multi_plane_fat_tree(const NetworkSpec& s, const NodeSpec& node, int nodes);

}  // namespace codesim::topologies
