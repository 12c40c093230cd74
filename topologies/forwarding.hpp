// InfiniBand's linear forwarding tables as OpenSM's routing engines fill them: for every switch
// and every destination NIC, the one port the switch forwards that NIC's packets on.
// docs/model/routing.md describes each engine and where it departs from OpenSM's source.
//
//   minhop: OpenSM's default engine. Each switch on its own, destinations in OpenSM's order
//           (leaves by their NIC count, most first, then by index; NICs by port), takes among
//           its ports on a shortest path the one that carries the fewest destinations so far
//           (the first such port on a tie).
//   updn:   minhop restricted to up*/down* paths (no hop toward the roots after one away from
//           them). Roots are found as OpenSM finds them without a root file: the switches whose
//           histogram of hops to the NICs has exactly one bar above 90% of them and none other
//           above 5%; ranks are hops from the nearest root. Where no switch qualifies, OpenSM
//           disables updn and routes with minhop: so does this (roots() is then empty).
//   ftree:  OpenSM's fat-tree engine, for fat trees only. Destinations leaf by leaf, NIC by
//           port; from the destination's leaf the main path goes up, at each level over the
//           uplink group (the links to one upper switch) that carries the fewest downward routes
//           (then the lowest switch index), its least-loaded link; every switch on the way routes
//           its other subtrees up to it over their least-loaded link; upper switches off the main
//           path get a route down without counting it. Leaves with fewer NICs than the fullest
//           route dummy destinations to keep the counts balanced, as OpenSM does.
#pragma once

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "topologies/topology.hpp"

namespace codesim::topologies {

enum class RoutingEngine { minhop, updn, ftree };

class ForwardingTables {
 public:
  // Throws std::invalid_argument for ftree on a network that is not a fat tree, for a NIC with
  // other than one switch link, and for tables of more than kMaxEntries switch x NIC entries.
  ForwardingTables(const Topology& topology, RoutingEngine engine);

  static constexpr std::int64_t kMaxEntries = std::int64_t{1} << 26;

  // The link `sw` forwards packets for `nic` on. Throws std::runtime_error where the switch has
  // no route to the NIC (another plane), std::out_of_range for a vertex that is not a switch or
  // not a NIC.
  EdgeId next(VertexId sw, VertexId nic) const;
  // updn: the roots found (none: minhop's tables, as OpenSM falls back); empty otherwise.
  const std::vector<VertexId>& roots() const { return roots_; }

 private:
  static constexpr std::uint16_t kNoRoute = 0xffff;
  static constexpr int kUnreachable = -1;
  struct Port {
    EdgeId edge;
    VertexId remote;
    int remote_switch = -1;  // index among switches_, -1 for a NIC
    int remote_port = -1;    // the same link's port index on the remote switch
  };

  // The destinations of one leaf: [begin, end) in destinations_.
  struct LeafRun {
    int leaf = 0;
    std::size_t begin = 0;
    std::size_t end = 0;
  };
  std::vector<LeafRun> leaf_runs() const;
  // The switches (switch_index_, switches_) and their ports in the order the builder connected
  // them, each switch link's port on its far end too.
  void number_ports(const Topology& topology);
  // The NICs as destinations, leaf by leaf, each leaf's by port: the leaves with the most NICs
  // first (OpenSM's order for minhop and updn), in index order for ftree.
  void number_destinations(const Topology& topology, RoutingEngine engine);
  // Hops over switch links from the nearest of `sources` (switch indices) to every switch (-1:
  // unreachable); links are two-way, so also the hops from every switch to them.
  std::vector<int> hops_from(const std::vector<int>& sources) const;
  // Hops toward a leaf over each port of each switch ([switch][port]; -1: not allowed).
  using PortHops = std::vector<std::vector<int>>;
  // Per switch on its own, per destination: among the ports with the fewest hops, the one that
  // carries the fewest destinations so far, the first on a tie.
  void route_least_loaded(const std::function<PortHops(int leaf)>& port_hops);
  void route_minhop();
  void route_updn();
  // updn's roots (switch indices; roots_ gets their vertices) and, toward `leaf`, each port's
  // hops over up*/down* paths given each switch's rank (hops from the nearest root).
  std::vector<int> updn_roots();
  PortHops updn_port_hops(int leaf, const std::vector<int>& rank) const;
  void route_ftree();
  class Ftree;  // route_ftree's state and recursions (forwarding_ftree.cpp)
  std::uint16_t& entry(int destination, int sw) {
    return table_[static_cast<std::size_t>(destination) * switches_.size() +
                  static_cast<std::size_t>(sw)];
  }

  std::vector<VertexId> switches_;
  std::vector<int> switch_index_;             // per vertex, -1 for other vertices
  std::vector<std::vector<Port>> ports_;      // per switch, in the order its links were built
  std::vector<VertexId> destinations_;        // NICs in the engine's order
  std::vector<int> leaf_of_;                  // per destination: its switch's index
  std::vector<int> leaf_port_;                // per destination: its port on that switch
  std::unordered_map<VertexId, int> column_;  // NIC -> index in destinations_
  std::vector<std::uint16_t> table_;          // destination x switch -> port index
  std::vector<VertexId> roots_;
};

}  // namespace codesim::topologies
