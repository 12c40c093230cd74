// Closed forms and direct measurements of topology properties.
#include "topologies/properties.hpp"

#include <algorithm>
#include <boost/graph/edmonds_karp_max_flow.hpp>
#include <cmath>
#include <deque>

#include "topologies/family.hpp"

namespace codesim::topologies {

Properties closed_form(const NetworkSpec& s, const NodeSpec& node, long long nodes,
                       const UnitPrices& prices) {
  const FamilyDescriptor& family = descriptor(s.family);
  Properties p;
  p.family = std::string(family.name);
  const long long gpus = nodes * node.gpus_per_node;
  Counts& c = p.counts;
  c.nvlinks = gpus;
  const double half = static_cast<double>(gpus / 2);  // full bisection: half the endpoints
  if (!family.network) {
    p.bisection = node.nvlink_bandwidth * half;
    p.cost = cost(c, prices);
    return p;
  }
  const FamilyForm form = family.closed_form(s, node, nodes);
  c.switches = form.switches;
  c.switch_links = form.switch_links;
  c.endpoints = gpus;
  c.endpoint_links = gpus;
  c.pcie_links = gpus;
  p.diameter = form.diameter;
  p.bisection_exact = form.bisection_exact;
  p.bisection = node.nic_bandwidth * std::min(half, form.cut_links);
  p.cost = cost(c, prices);
  return p;
}

Properties measure(const Topology& t, const NetworkSpec& s, const UnitPrices& prices) {
  Properties p = closed_form(s, t.node_spec(), t.nodes(), prices);
  p.counts = count(t);
  p.cost = cost(p.counts, prices);
  if (t.multi_plane()) {
    // Each failed plane takes away its share of the scale-out bandwidth.
    int working = 0;
    for (int plane = 0; plane < s.planes; ++plane) {
      working += t.plane_failed(plane) ? 0 : 1;
    }
    p.bisection = p.bisection * (static_cast<double>(working) / s.planes);
  }
  return p;
}

int computed_diameter(const Topology& t) {
  const Graph& g = t.graph();
  std::vector<VertexId> attached;  // switches with at least one NIC
  for (const auto v : boost::make_iterator_range(boost::vertices(g))) {
    if (!is_switch(g[v].kind)) {
      continue;
    }
    for (const auto u : boost::make_iterator_range(boost::adjacent_vertices(v, g))) {
      if (g[u].kind == VertexKind::nic) {
        attached.push_back(v);
        break;
      }
    }
  }
  int diameter = 0;
  std::vector<int> dist(boost::num_vertices(g));
  for (const VertexId src : attached) {
    std::fill(dist.begin(), dist.end(), -1);
    dist[src] = 0;
    std::deque<VertexId> queue{src};
    while (!queue.empty()) {
      const VertexId v = queue.front();
      queue.pop_front();
      for (const auto u : boost::make_iterator_range(boost::adjacent_vertices(v, g))) {
        if (is_switch(g[u].kind) && dist[u] < 0) {
          dist[u] = dist[v] + 1;
          queue.push_back(u);
        }
      }
    }
    for (const VertexId dst : attached) {
      diameter = std::max(diameter, dist[dst]);
    }
  }
  return diameter;
}

core::BytesPerSecond computed_halves_cut(const Topology& t) {
  using Traits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
  using FlowGraph = boost::adjacency_list<
      boost::vecS, boost::vecS, boost::directedS, boost::no_property,
      boost::property<
          boost::edge_capacity_t, long long,
          boost::property<boost::edge_residual_capacity_t, long long,
                          boost::property<boost::edge_reverse_t, Traits::edge_descriptor>>>>;
  const Graph& g = t.graph();
  const auto n = boost::num_vertices(g);
  FlowGraph f(n + 2);
  const auto source = n;
  const auto sink = n + 1;
  auto capacity = boost::get(boost::edge_capacity, f);
  auto reverse = boost::get(boost::edge_reverse, f);
  // Capacities in kB/s as integers, so that the augmenting-path max flow is exact.
  // An undirected link of capacity c is two arcs of capacity c, each the other's reverse.
  auto add_pair = [&](std::size_t a, std::size_t b, long long c_ab, long long c_ba) {
    const auto ab = boost::add_edge(a, b, f).first;
    const auto ba = boost::add_edge(b, a, f).first;
    capacity[ab] = c_ab;
    capacity[ba] = c_ba;
    reverse[ab] = ba;
    reverse[ba] = ab;
  };
  for (const EdgeId e : t.links()) {
    const VertexId a = boost::source(e, g);
    const VertexId b = boost::target(e, g);
    const bool network = (is_switch(g[a].kind) || g[a].kind == VertexKind::nic) &&
                         (is_switch(g[b].kind) || g[b].kind == VertexKind::nic);
    if (network) {
      const auto kbps = std::llround(g[e].bandwidth.value / 1e3);
      add_pair(a, b, kbps, kbps);
    }
  }
  long long unlimited = 1;
  for (const EdgeId e : t.links()) {
    unlimited += std::llround(g[e].bandwidth.value / 1e3);
  }
  for (int i = 0; i < t.gpus(); ++i) {
    if (i < t.gpus() / 2) {
      add_pair(source, t.nic(i), unlimited, 0);
    } else {
      add_pair(t.nic(i), sink, unlimited, 0);
    }
  }
  return core::BytesPerSecond(static_cast<double>(boost::edmonds_karp_max_flow(f, source, sink)) *
                              1e3);
}

}  // namespace codesim::topologies
