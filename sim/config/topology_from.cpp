// Scenario -> topology.
#include "sim/config/topology_from.hpp"

#include "topologies/build.hpp"
#include "topologies/family.hpp"

namespace codesim::config {

topologies::NodeSpec node_spec(const Scenario& s) {
  return topologies::node_spec_from(s.hardware.spec, s.topology.switch_latency);
}

topologies::Topology build_topology(const Scenario& s) {
  auto t = topologies::build_topology(s.topology.network, node_spec(s), s.hardware.nodes);
  t.set_failed_planes(s.topology.failed_planes);
  return t;
}

topologies::Spread path_spread(const Scenario& s) {
  switch (s.topology.path_selection) {
    case PathSelection::automatic:
      // InfiniBand: d-mod-k on fat trees (the same loads as OpenSM's ftree on every shipped
      // one, and no table to hold), OpenSM's default minhop on router networks.
      if (s.topology.fabric == Fabric::roce) {
        return topologies::Spread::hashed;
      }
      return topologies::descriptor(s.topology.network.family).detour_routing
                 ? topologies::Spread::minhop
                 : topologies::Spread::destination;
    case PathSelection::dmodk:
      return topologies::Spread::destination;
    case PathSelection::ftree:
      return topologies::Spread::ftree;
    case PathSelection::minhop:
      return topologies::Spread::minhop;
    case PathSelection::updn:
      return topologies::Spread::updn;
    case PathSelection::spread:
      return topologies::Spread::even;
    case PathSelection::valiant:
      return topologies::Spread::valiant;
    case PathSelection::ugal:
      return topologies::Spread::ugal;
    case PathSelection::ecmp_hash:
    case PathSelection::fixed:
      break;
  }
  return topologies::Spread::hashed;
}

}  // namespace codesim::config
