// Minimal routes between two GPUs: the equal-cost set (ECMP), hop count and the links used.
// Computed per pair on demand (a BFS over the switches), so that large topologies need no
// all-pairs tables.
//
// Same node: GPU -NVLink- NVSwitch -NVLink- GPU. Other node: GPU -PCIe- NIC - switches - NIC
// -PCIe- GPU. MPFT: planes never meet, so a GPU reaching another node's GPU of a different index
// first crosses NVLink to the local GPU in the destination's plane (PlaneCrossing::at_source), or
// the destination's node forwards it (at_destination); a failed plane's traffic takes the next
// working plane, crossing NVLink on both nodes.
#pragma once

#include <cstdint>
#include <vector>

#include "topologies/topology.hpp"

namespace codesim::topologies {

struct Path {
  std::vector<VertexId> vertices;  // from the source GPU to the destination GPU
  std::vector<EdgeId> links;       // links[i] joins vertices[i] and vertices[i + 1]
};

struct PathSet {
  int hops = 0;             // links on every path
  int switch_hops = 0;      // switch-to-switch links on every path
  std::uint64_t count = 0;  // equal-cost paths in all (may exceed paths.size())
  std::vector<Path> paths;  // the first max_paths of them
};

struct RoutingOptions {
  std::size_t max_paths = 64;
};

// The GPUs whose NICs a flow from gpu_a to gpu_b (on different nodes) enters and leaves the
// network by: the two GPUs themselves, or on MPFT the GPUs of the plane it travels in. Throws
// std::runtime_error when every plane has failed.
struct NetworkEnds {
  int enter = 0;
  int leave = 0;
};
NetworkEnds network_ends(const Topology& t, int gpu_a, int gpu_b);

// Throws std::out_of_range for a GPU index outside the topology and std::runtime_error when the
// two GPUs are not connected.
PathSet route(const Topology& t, int gpu_a, int gpu_b, const RoutingOptions& options = {});

// A message alone from gpu_a to gpu_b on their first minimal path: its links' latencies summed
// and its slowest link's bandwidth (a pipeline stage's hop, a KV-cache transfer). Throws as
// route does.
struct PathTiming {
  core::Seconds latency;
  core::BytesPerSecond bandwidth;
  core::Seconds time(core::Bytes bytes) const { return latency + bytes / bandwidth; }
};
PathTiming path_timing(const Topology& t, int gpu_a, int gpu_b);

}  // namespace codesim::topologies
