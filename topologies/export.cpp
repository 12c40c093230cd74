// DOT and JSON writers.
#include "topologies/export.hpp"

#include <map>
#include <sstream>
#include <stdexcept>

#include "topologies/family.hpp"

namespace codesim::topologies {
namespace {

std::string vertex_name(const Graph& g, VertexId v) {
  const Vertex& x = g[v];
  std::string name = std::string(vertex_kind_name(x.kind)) + std::to_string(v);
  if (x.node >= 0) {
    name = std::string(vertex_kind_name(x.kind)) + "_n" + std::to_string(x.node) +
           (x.local >= 0 ? "_" + std::to_string(x.local) : "");
  }
  return name;
}

}  // namespace

std::string vertex_label(const Topology& t, VertexId v) {
  return vertex_name(t.graph(), v);
}

std::string to_dot(const Topology& t, std::size_t max_vertices) {
  const Graph& g = t.graph();
  if (t.vertex_count() > max_vertices) {
    throw std::length_error("the topology has " + std::to_string(t.vertex_count()) +
                            " vertices; DOT output is limited to " + std::to_string(max_vertices));
  }
  std::ostringstream out;
  out << "graph \"" << family_name(t.family()) << "\" {\n  node [shape=box, fontsize=9];\n";
  // Nodes (GPUs, their NVSwitch and NICs) and planes (switches of one plane) as clusters.
  std::map<std::string, std::vector<VertexId>> clusters;
  for (const auto v : boost::make_iterator_range(boost::vertices(g))) {
    const Vertex& x = g[v];
    if (x.node >= 0) {
      clusters["node " + std::to_string(x.node)].push_back(v);
    } else if (x.plane >= 0) {
      clusters["plane " + std::to_string(x.plane)].push_back(v);
    } else {
      out << "  \"" << vertex_name(g, v) << "\";\n";
    }
  }
  int index = 0;
  for (const auto& [label, members] : clusters) {
    out << "  subgraph cluster_" << index++ << " {\n    label=\"" << label << "\";\n";
    for (const VertexId v : members) {
      out << "    \"" << vertex_name(g, v) << "\";\n";
    }
    out << "  }\n";
  }
  for (const EdgeId e : t.links()) {
    out << "  \"" << vertex_name(g, boost::source(e, g)) << "\" -- \""
        << vertex_name(g, boost::target(e, g)) << "\" [label=\"" << link_kind_name(g[e].kind)
        << "\"];\n";
  }
  out << "}\n";
  return out.str();
}

nlohmann::ordered_json to_json(const std::string& name, const Properties& p) {
  const double total = p.cost.total_usd();
  const auto& c = p.counts;
  return {
      {"name", name},
      {"family", p.family},
      {"endpoints", c.endpoints},
      {"switches", c.switches},
      {"links", c.switch_links},
      {"cables",
       {{"switch_to_switch", c.switch_links},
        {"nic_to_switch", c.endpoint_links},
        {"nvlink", c.nvlinks},
        {"pcie", c.pcie_links}}},
      {"cost_usd", total},
      {"cost_per_endpoint_usd", c.endpoints > 0 ? total / static_cast<double>(c.endpoints) : 0.0},
      {"diameter", p.diameter},
      {"bisection_bandwidth_Bps", p.bisection.value},
      {"bisection_exact", p.bisection_exact}};
}

}  // namespace codesim::topologies
