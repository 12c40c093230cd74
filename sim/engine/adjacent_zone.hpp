// A SimGrid network zone that knows only routes between adjacent vertices: one link each, in
// one direction. SimGrid's full zone keeps a route slot for every ordered pair of its points, so
// its memory grows with the square of the vertices (10 GB for a 16,384-GPU multi-plane
// fat-tree's 35,584); the platform never asks for a route longer than one link (a transfer's
// bytes are already routed onto links by topologies::TrafficRouter), so this zone keeps one
// hash-map entry per directed link instead.
#pragma once

#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <simgrid/s4u/Link.hpp>
#include <string>
#include <unordered_map>

namespace codesim::engine {

class AdjacentZone final : public simgrid::kernel::routing::NetZoneImpl {
 public:
  // The zone is owned by SimGrid's engine (the first zone created becomes its root).
  static AdjacentZone* create(const std::string& name);

  // Traffic from `from` to `to` crosses `link` (one direction of a split-duplex link).
  void add_adjacent(const simgrid::kernel::routing::NetPoint* from,
                    const simgrid::kernel::routing::NetPoint* to, simgrid::s4u::Link* link);

  // Throws core::SimulationError for a pair that is not adjacent.
  void get_local_route(const simgrid::kernel::routing::NetPoint* src,
                       const simgrid::kernel::routing::NetPoint* dst,
                       simgrid::kernel::routing::Route* into, double* latency) override;

 private:
  using NetZoneImpl::NetZoneImpl;
  struct Hop {
    simgrid::kernel::resource::StandardLinkImpl* link;
    double latency;
  };
  std::unordered_map<unsigned long long, Hop> hops_;  // key: from id << 32 | to id
};

}  // namespace codesim::engine
