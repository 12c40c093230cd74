// Routes between adjacent vertices from a hash map.
#include "sim/engine/adjacent_zone.hpp"

#include <simgrid/kernel/routing/NetPoint.hpp>

#include "sim/core/error.hpp"

namespace codesim::engine {
namespace {

unsigned long long key(const simgrid::kernel::routing::NetPoint* from,
                       const simgrid::kernel::routing::NetPoint* to) {
  return (static_cast<unsigned long long>(from->id()) << 32U) | to->id();
}

}  // namespace

AdjacentZone* AdjacentZone::create(const std::string& name) {
  return new AdjacentZone(name);  // NOLINT: SimGrid's engine deletes its zones
}

void AdjacentZone::add_adjacent(const simgrid::kernel::routing::NetPoint* from,
                                const simgrid::kernel::routing::NetPoint* to,
                                simgrid::s4u::Link* link) {
  hops_[key(from, to)] = Hop{link->get_impl(), link->get_latency()};
}

void AdjacentZone::get_local_route(const simgrid::kernel::routing::NetPoint* src,
                                   const simgrid::kernel::routing::NetPoint* dst,
                                   simgrid::kernel::routing::Route* into, double* latency) {
  const auto hop = hops_.find(key(src, dst));
  if (hop == hops_.end()) {
    throw core::SimulationError("no link from " + src->get_name() + " to " + dst->get_name() +
                                " in the platform: only adjacent vertices exchange bytes");
  }
  into->link_list_.push_back(hop->second.link);
  if (latency != nullptr) {
    *latency += hop->second.latency;
  }
}

}  // namespace codesim::engine
