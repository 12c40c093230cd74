// Closed forms and direct measurements of topology properties.
#include "topologies/properties.hpp"

#include <algorithm>
#include <boost/graph/edmonds_karp_max_flow.hpp>
#include <cmath>
#include <deque>

#include "sim/core/arithmetic.hpp"
#include "topologies/dragonfly.hpp"
#include "topologies/fat_tree.hpp"
#include "topologies/slim_fly.hpp"

namespace codesim::topologies {
namespace {

// Two-layer tree sized for its leaves (fat_tree.hpp): every leaf's uplinks, when it has spines
// to reach. Returns the uplinks, 0 without spines.
long long add_two_layer(Counts& c, long long leaves, long long radix, long long up) {
  const long long spines = two_layer_spines(leaves, radix, up);
  c.switches += leaves + spines;
  const long long uplinks = spines > 0 ? leaves * up : 0;
  c.switch_links += uplinks;
  return uplinks;
}

// Longest shortest path among n routers joined by `links` (BFS from each; -1 if disconnected).
int router_diameter(int n, const std::vector<std::pair<int, int>>& links) {
  std::vector<std::vector<int>> next(static_cast<std::size_t>(n));
  for (const auto& [a, b] : links) {
    next[static_cast<std::size_t>(a)].push_back(b);
    next[static_cast<std::size_t>(b)].push_back(a);
  }
  int diameter = 0;
  std::vector<int> dist(static_cast<std::size_t>(n));
  for (int src = 0; src < n; ++src) {
    std::fill(dist.begin(), dist.end(), -1);
    dist[static_cast<std::size_t>(src)] = 0;
    std::deque<int> queue{src};
    while (!queue.empty()) {
      const int v = queue.front();
      queue.pop_front();
      for (const int u : next[static_cast<std::size_t>(v)]) {
        if (dist[static_cast<std::size_t>(u)] < 0) {
          dist[static_cast<std::size_t>(u)] = dist[static_cast<std::size_t>(v)] + 1;
          queue.push_back(u);
        }
      }
    }
    for (const int d : dist) {
      if (d < 0) {
        return -1;
      }
      diameter = std::max(diameter, d);
    }
  }
  return diameter;
}

// A three-tier build's switches and links (fat_tree.hpp), and its diameter. Returns the
// aggregation-to-core uplinks.
long long add_three_tier(Counts& c, Properties& p, const ThreeTierShape& shape,
                         const NetworkSpec& s) {
  const long long half = s.radix / 2;
  if (shape.single_switch()) {
    c.switches += 1;
    p.diameter = 0;
    return 0;
  }
  for (const int edges : shape.edges) {
    c.switches += 2LL * edges;       // edge and aggregation switches
    c.switch_links += edges * half;  // each edge switch's uplinks
  }
  for (const int group : shape.cores) {
    c.switches += group;
  }
  const long long uplinks = shape.core_links();
  c.switch_links += uplinks;
  const std::size_t pods = shape.edges.size();
  p.diameter = pods > 1 ? 4 : (pods == 1 && shape.edges.front() > 1 ? 2 : 0);
  // The bisection is an estimate at 1:R with a partial last pod, whose uplinks the cut may not
  // need.
  p.bisection_exact = s.oversubscription == 1 || shape.edges.back() == half;
  return uplinks;
}

// Expected links across a random balanced split of n vertices joined by `links` links:
// each link crosses with probability (n/2)^2 / (n(n-1)/2) = n / (2(n-1)).
double random_cut(double links, double n) {
  return links * n / (2.0 * (n - 1.0));
}

}  // namespace

namespace {

// Each family's part of the closed form: its switches and switch links into `c`, its diameter
// (and whether its bisection is exact) into `p`; it returns the links crossing a balanced cut of
// the endpoints, at most `half` (full bisection: half the endpoints).

// At 1:R the top tier's uplinks bound the cut: half of them cross a balanced cut (at 1:1 every
// build keeps full bisection, a partial pod's uplinks matching its endpoints).
double top_tier_cut(const NetworkSpec& s, double half, long long uplinks) {
  return s.oversubscription > 1 && uplinks > 0 ? std::min(half, static_cast<double>(uplinks) / 2)
                                               : half;
}

double fat_tree_form(const NetworkSpec& s, const NodeSpec& node, long long nodes, double half,
                     Counts& c, Properties& p) {
  const long long k = s.radix;
  const LeafPorts leaf = leaf_ports(s.radix, s.oversubscription);
  const long long gpus = nodes * node.gpus_per_node;
  if (s.family == Family::ft3 ||
      (s.family == Family::mrft &&
       mrft_three_tier(s, node.gpus_per_node, static_cast<int>(nodes)))) {
    const ThreeTierShape shape =
        s.family == Family::ft3 ? ft3_shape(s, gpus) : mrft_shape(s, node.gpus_per_node, nodes);
    return top_tier_cut(s, half, add_three_tier(c, p, shape, s));
  }
  long long leaves = 0;
  long long uplinks = 0;
  if (s.family == Family::ft2) {
    leaves = core::ceil_div(gpus, static_cast<long long>(leaf.down));
    uplinks = add_two_layer(c, leaves, k, leaf.up);
  } else if (s.family == Family::mrft) {  // one two-layer tree per rail
    leaves = node.gpus_per_node * core::ceil_div(nodes, static_cast<long long>(leaf.down));
    uplinks = add_two_layer(c, leaves, k, leaf.up);
  } else {  // mpft: one two-layer tree per plane
    leaves = core::ceil_div(nodes, static_cast<long long>(leaf.down));
    for (int plane = 0; plane < s.planes; ++plane) {
      uplinks += add_two_layer(c, leaves, k, leaf.up);
    }
  }
  p.diameter = leaves > 1 ? 2 : 0;
  return top_tier_cut(s, half, uplinks);
}

double slim_fly_form(const NetworkSpec& s, long long gpus, double half, Counts& c, Properties& p) {
  const long long q = s.slimfly_q;
  const long long delta = q % 4 == 1 ? 1 : (q % 4 == 3 ? -1 : 0);
  const long long routers = slim_fly_routers_needed(s.slimfly_q, s.endpoints_per_router, gpus);
  if (routers == 2 * q * q) {
    c.switches = 2 * q * q;
    c.switch_links = q * q * (3 * q - delta) / 2;
    p.diameter = 2;
  } else {
    // Fewer routers (slim_fly.hpp): count the MMS links among them, measure the diameter.
    const SlimFlyBuild built = slim_fly_build(s.slimfly_q, routers);
    c.switches = routers;
    c.switch_links = static_cast<long long>(built.links.size());
    p.diameter = router_diameter(static_cast<int>(routers), built.links);
  }
  // No closed form for the minimum bisection of an MMS graph: estimate it by a random balanced
  // split of the routers.
  p.bisection_exact = false;
  return std::min(half,
                  random_cut(static_cast<double>(c.switch_links), static_cast<double>(c.switches)));
}

double dragonfly_form(const NetworkSpec& s, long long gpus, double half, Counts& c, Properties& p) {
  const long long a = s.dragonfly_a;
  const long long g = dragonfly_groups_needed(s, gpus);
  // Every group's a h global ports, paired over the groups built (dragonfly.hpp).
  const auto global = static_cast<long long>(
      dragonfly_global_pairs(static_cast<int>(g), static_cast<int>(a * s.dragonfly_h)).size());
  c.switches = a * g;
  c.switch_links = g * a * (a - 1) / 2 + global;
  p.diameter = core::ceil_div(gpus, static_cast<long long>(s.endpoints_per_router)) > 1
                   ? dragonfly_diameter(s, g)
                   : 0;
  p.bisection_exact = false;
  // Split the groups in halves; global links are spread evenly over group pairs, so the share
  // crossing is (g/2)(g - g/2) / (g(g-1)/2). An estimate: other cuts may be smaller.
  if (g > 1) {
    const double crossing = static_cast<double>(global) *
                            static_cast<double>((g / 2) * (g - g / 2)) /
                            (static_cast<double>(g) * static_cast<double>(g - 1) / 2.0);
    return std::min(half, crossing);
  }
  return std::min(half, static_cast<double>((a / 2) * (a - a / 2)));
}

}  // namespace

Properties closed_form(const NetworkSpec& s, const NodeSpec& node, long long nodes,
                       const UnitPrices& prices) {
  Properties p;
  p.family = std::string(family_name(s.family));
  const long long gpus = nodes * node.gpus_per_node;
  Counts& c = p.counts;
  c.nvlinks = gpus;
  const double half = static_cast<double>(gpus / 2);  // full bisection: half the endpoints
  double cut_links = half;
  switch (s.family) {
    case Family::node:
      p.bisection = node.nvlink_bandwidth * half;
      p.cost = cost(c, prices);
      return p;
    case Family::ft2:
    case Family::mrft:
    case Family::mpft:
    case Family::ft3:
      cut_links = fat_tree_form(s, node, nodes, half, c, p);
      break;
    case Family::slimfly:
      cut_links = slim_fly_form(s, gpus, half, c, p);
      break;
    case Family::dragonfly:
      cut_links = dragonfly_form(s, gpus, half, c, p);
      break;
  }
  c.endpoints = gpus;
  c.endpoint_links = gpus;
  c.pcie_links = gpus;
  p.bisection = node.nic_bandwidth * cut_links;
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
