// Twin switches found by sorting the switches by their switch neighbours; one breadth-first search
// per class of destination switch over the graph of classes.
#include "topologies/switch_distances.hpp"

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <string>
#include <utility>

#include "topologies/export.hpp"

namespace codesim::topologies {

SwitchDistances::SwitchDistances(const Topology& topology) {
  const Graph& g = topology.graph();
  places_.resize(boost::num_vertices(g));
  // Each switch with the switches it is joined to (sorted, each once).
  std::vector<std::pair<std::vector<VertexId>, VertexId>> joined;
  for (const auto v : boost::make_iterator_range(boost::vertices(g))) {
    if (!is_switch(g[v].kind)) {
      continue;
    }
    std::vector<VertexId> others;
    for (const auto e : boost::make_iterator_range(boost::out_edges(v, g))) {
      if (is_switch(g[boost::target(e, g)].kind)) {
        others.push_back(boost::target(e, g));
      }
    }
    std::sort(others.begin(), others.end());
    others.erase(std::unique(others.begin(), others.end()), others.end());
    joined.emplace_back(std::move(others), v);
  }
  switches_ = static_cast<int>(joined.size());
  std::sort(joined.begin(), joined.end());
  std::vector<std::size_t> first_of_class;
  for (std::size_t i = 0; i < joined.size(); ++i) {
    if (i == 0 || joined[i].first != joined[i - 1].first) {
      first_of_class.push_back(i);
    }
    places_[joined[i].second] =
        Place{.cls = static_cast<int>(first_of_class.size()) - 1, .attach = joined[i].second};
  }
  neighbours_.resize(first_of_class.size());
  for (std::size_t c = 0; c < first_of_class.size(); ++c) {
    std::vector<int>& next = neighbours_[c];
    for (const VertexId u : joined[first_of_class[c]].first) {
      next.push_back(places_[u].cls);
    }
    std::sort(next.begin(), next.end());
    next.erase(std::unique(next.begin(), next.end()), next.end());
  }
  for (const auto v : boost::make_iterator_range(boost::vertices(g))) {
    if (g[v].kind != VertexKind::nic) {
      continue;
    }
    for (const auto e : boost::make_iterator_range(boost::out_edges(v, g))) {
      const VertexId sw = boost::target(e, g);
      if (!is_switch(g[sw].kind)) {
        continue;
      }
      if (places_[v].cls >= 0) {
        throw std::invalid_argument("routing needs every NIC on at most one switch link; " +
                                    vertex_label(topology, v) + " has more");
      }
      places_[v] = Place{.cls = places_[sw].cls, .attach = sw};
    }
  }
}

const std::vector<std::int16_t>& SwitchDistances::table(int root_class) const {
  auto found = tables_.find(root_class);
  if (found != tables_.end()) {
    return found->second;
  }
  std::vector<std::int16_t> hops(neighbours_.size(), -1);
  hops[static_cast<std::size_t>(root_class)] = 0;
  std::deque<int> queue{root_class};
  while (!queue.empty()) {
    const int c = queue.front();
    queue.pop_front();
    for (const int next : neighbours_[static_cast<std::size_t>(c)]) {
      if (hops[static_cast<std::size_t>(next)] < 0) {
        hops[static_cast<std::size_t>(next)] =
            static_cast<std::int16_t>(hops[static_cast<std::size_t>(c)] + 1);
        queue.push_back(next);
      }
    }
  }
  return tables_.emplace(root_class, std::move(hops)).first->second;
}

SwitchDistances::View SwitchDistances::to(VertexId destination) const {
  View out;
  out.places_ = &places_;
  out.destination_ = destination;
  const Place& p = places_[destination];
  if (p.cls < 0) {
    return out;  // no switch: nothing reaches it through the network
  }
  out.root_ = p.attach;
  out.root_class_ = p.cls;
  out.offset_ = p.attach != destination ? 1 : 0;
  out.twin_ = neighbours_[static_cast<std::size_t>(p.cls)].empty() ? -1 : 2;
  out.table_ = &table(p.cls);
  return out;
}

}  // namespace codesim::topologies
