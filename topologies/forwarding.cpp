// The tables' layout and the two engines that pick the least-loaded port on a shortest allowed
// path: minhop and updn (ftree in forwarding_ftree.cpp).
#include "topologies/forwarding.hpp"

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>

namespace codesim::topologies {

ForwardingTables::ForwardingTables(const Topology& topology, RoutingEngine engine) {
  number_ports(topology);
  number_destinations(topology, engine);
  const auto entries =
      static_cast<std::int64_t>(switches_.size()) * static_cast<std::int64_t>(destinations_.size());
  if (entries > kMaxEntries) {
    throw std::invalid_argument(
        "routing tables of " + std::to_string(switches_.size()) + " switches x " +
        std::to_string(destinations_.size()) + " NICs exceed " + std::to_string(kMaxEntries) +
        " entries: route this network with dmodk, which computes each hop as it goes");
  }
  table_.assign(static_cast<std::size_t>(entries), kNoRoute);
  switch (engine) {
    case RoutingEngine::minhop:
      route_minhop();
      break;
    case RoutingEngine::updn:
      route_updn();
      break;
    case RoutingEngine::ftree:
      route_ftree();
      break;
  }
}

void ForwardingTables::number_ports(const Topology& topology) {
  const Graph& g = topology.graph();
  switch_index_.assign(topology.vertex_count(), -1);
  for (const auto v : boost::make_iterator_range(boost::vertices(g))) {
    if (is_switch(g[v].kind)) {
      switch_index_[v] = static_cast<int>(switches_.size());
      switches_.push_back(v);
    }
  }
  // Ports in the order the builder connected them; a link's port on each of its two ends.
  std::vector<int> port_of(2 * topology.links().size(), -1);
  const auto end_of = [&](EdgeId e, VertexId v) {  // the slot of e's end at v in port_of
    const auto id = static_cast<std::size_t>(g[e].id);
    return 2 * id + (boost::source(topology.links()[id], g) != v ? 1 : 0);
  };
  ports_.resize(switches_.size());
  for (std::size_t s = 0; s < switches_.size(); ++s) {
    for (const auto e : boost::make_iterator_range(boost::out_edges(switches_[s], g))) {
      const VertexId remote = boost::target(e, g);
      if (!is_switch(g[remote].kind) && g[remote].kind != VertexKind::nic) {
        continue;
      }
      port_of[end_of(e, switches_[s])] = static_cast<int>(ports_[s].size());
      ports_[s].push_back(
          Port{.edge = e, .remote = remote, .remote_switch = switch_index_[remote]});
    }
  }
  for (auto& ports : ports_) {
    for (Port& p : ports) {
      if (p.remote_switch >= 0) {
        p.remote_port = port_of[end_of(p.edge, p.remote)];
      }
    }
  }
}

void ForwardingTables::number_destinations(const Topology& topology, RoutingEngine engine) {
  const Graph& g = topology.graph();
  // Destinations leaf by leaf, each leaf's NICs by port. minhop and updn take the leaves with
  // the most NICs first (OpenSM's sort_ports_by_switch_load), ftree in index order.
  const auto nic_count = [&](int s) {
    return std::count_if(ports_[s].begin(), ports_[s].end(),
                         [](const Port& p) { return p.remote_switch < 0; });
  };
  std::vector<int> leaves;
  for (std::size_t s = 0; s < switches_.size(); ++s) {
    if (nic_count(static_cast<int>(s)) > 0) {
      leaves.push_back(static_cast<int>(s));
    }
  }
  if (engine != RoutingEngine::ftree) {
    std::stable_sort(leaves.begin(), leaves.end(),
                     [&](int a, int b) { return nic_count(a) > nic_count(b); });
  }
  for (const int leaf : leaves) {
    const auto& ports = ports_[static_cast<std::size_t>(leaf)];
    for (std::size_t p = 0; p < ports.size(); ++p) {
      const VertexId nic = ports[p].remote;
      if (ports[p].remote_switch < 0) {
        if (!only_switch_link(topology, nic)) {
          throw std::invalid_argument("routing tables need every NIC on exactly one switch link; " +
                                      std::string(vertex_kind_name(g[nic].kind)) + " has more");
        }
        column_[nic] = static_cast<int>(destinations_.size());
        destinations_.push_back(nic);
        leaf_of_.push_back(leaf);
        leaf_port_.push_back(static_cast<int>(p));
      }
    }
  }
}

EdgeId ForwardingTables::next(VertexId sw, VertexId nic) const {
  const int s = sw < switch_index_.size() ? switch_index_[sw] : -1;
  const auto column = column_.find(nic);
  if (s < 0 || column == column_.end()) {
    throw std::out_of_range("forwarding tables: not a switch and a NIC of the network");
  }
  const std::uint16_t port = table_[static_cast<std::size_t>(column->second) * switches_.size() +
                                    static_cast<std::size_t>(s)];
  if (port == kNoRoute) {
    throw std::runtime_error("no route between the two GPUs");
  }
  return ports_[static_cast<std::size_t>(s)][port].edge;
}

std::vector<ForwardingTables::LeafRun> ForwardingTables::leaf_runs() const {
  std::vector<LeafRun> runs;
  for (std::size_t d = 0; d < destinations_.size(); ++d) {
    if (runs.empty() || runs.back().leaf != leaf_of_[d]) {
      runs.push_back({.leaf = leaf_of_[d], .begin = d, .end = d});
    }
    runs.back().end = d + 1;
  }
  return runs;
}

std::vector<int> ForwardingTables::hops_from(const std::vector<int>& sources) const {
  std::vector<int> hops(switches_.size(), kUnreachable);
  std::deque<int> queue;
  for (const int s : sources) {
    if (hops[static_cast<std::size_t>(s)] < 0) {
      hops[static_cast<std::size_t>(s)] = 0;
      queue.push_back(s);
    }
  }
  while (!queue.empty()) {
    const int s = queue.front();
    queue.pop_front();
    for (const Port& p : ports_[static_cast<std::size_t>(s)]) {
      if (p.remote_switch >= 0 && hops[static_cast<std::size_t>(p.remote_switch)] < 0) {
        hops[static_cast<std::size_t>(p.remote_switch)] = hops[static_cast<std::size_t>(s)] + 1;
        queue.push_back(p.remote_switch);
      }
    }
  }
  return hops;
}

// osm_switch_recommend_path without LMC, port shifting or scatter: per switch its own counts.
void ForwardingTables::route_least_loaded(const std::function<PortHops(int leaf)>& port_hops) {
  std::vector<std::vector<std::uint32_t>> carried(switches_.size());
  for (std::size_t s = 0; s < switches_.size(); ++s) {
    carried[s].assign(ports_[s].size(), 0);
  }
  for (const LeafRun& run : leaf_runs()) {
    const PortHops via = port_hops(run.leaf);
    for (std::size_t d = run.begin; d < run.end; ++d) {
      for (std::size_t s = 0; s < switches_.size(); ++s) {
        int chosen = -1;
        if (static_cast<int>(s) == run.leaf) {
          chosen = leaf_port_[d];
        } else {
          int fewest = -1;
          for (const int h : via[s]) {
            if (h >= 0 && (fewest < 0 || h < fewest)) {
              fewest = h;
            }
          }
          for (std::size_t p = 0; p < via[s].size() && fewest >= 0; ++p) {
            if (via[s][p] == fewest && (chosen < 0 || carried[s][p] < carried[s][chosen])) {
              chosen = static_cast<int>(p);
            }
          }
        }
        if (chosen >= 0) {
          ++carried[s][static_cast<std::size_t>(chosen)];
          entry(static_cast<int>(d), static_cast<int>(s)) = static_cast<std::uint16_t>(chosen);
        }
      }
    }
  }
}

void ForwardingTables::route_minhop() {
  route_least_loaded([&](int leaf) {
    const std::vector<int> hops = hops_from({leaf});
    PortHops via(switches_.size());
    for (std::size_t s = 0; s < switches_.size(); ++s) {
      for (const Port& p : ports_[s]) {
        const int h =
            p.remote_switch < 0 ? kUnreachable : hops[static_cast<std::size_t>(p.remote_switch)];
        via[s].push_back(h < 0 ? kUnreachable : h + 1);
      }
    }
    return via;
  });
}

}  // namespace codesim::topologies
