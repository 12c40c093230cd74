// Topology and property exports: Graphviz DOT (planes and nodes as clusters) and JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "topologies/properties.hpp"
#include "topologies/topology.hpp"

namespace codesim::topologies {

// "gpu_n3_5" (node 3, local 5), "leaf12", ...
std::string vertex_label(const Topology& t, VertexId v);

// DOT for small topologies; throws std::length_error above max_vertices.
std::string to_dot(const Topology& t, std::size_t max_vertices = 5000);

// name, endpoints, switches, links (switch to switch), cables by kind, cost_usd,
// cost_per_endpoint_usd, diameter, bisection_bandwidth_Bps, bisection_exact.
nlohmann::ordered_json to_json(const std::string& name, const Properties& p);

}  // namespace codesim::topologies
