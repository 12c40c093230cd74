// updn: minhop over up*/down* paths, the roots found as OpenSM finds them without a root file.
#include <algorithm>
#include <deque>
#include <limits>
#include <vector>

#include "topologies/forwarding.hpp"

namespace codesim::topologies {
namespace {

constexpr int kUnranked = std::numeric_limits<int>::max();

}  // namespace

std::vector<int> ForwardingTables::updn_roots() {
  // Per connected network (each MPFT plane is a subnet of its own), the switches whose histogram
  // of hops to the NICs (hops to their leaves, each leaf weighted by its NICs) has exactly one bar
  // above 90% of that network's NICs and no other above 5% (updn_find_root_nodes_by_min_hop).
  const std::size_t n = switches_.size();
  std::vector<int> component(n, -1);
  std::vector<int> nics_in;  // per component
  for (std::size_t s = 0; s < n; ++s) {
    if (component[s] >= 0) {
      continue;
    }
    const int c = static_cast<int>(nics_in.size());
    nics_in.push_back(0);
    const std::vector<int> reach = hops_from({static_cast<int>(s)});
    for (std::size_t v = 0; v < n; ++v) {
      if (reach[v] >= 0) {
        component[v] = c;
      }
    }
  }
  std::vector<std::vector<double>> histogram(n);
  for (const LeafRun& run : leaf_runs()) {
    const auto nics = run.end - run.begin;
    nics_in[static_cast<std::size_t>(component[static_cast<std::size_t>(run.leaf)])] +=
        static_cast<int>(nics);
    const std::vector<int> hops = hops_from({run.leaf});
    for (std::size_t s = 0; s < n; ++s) {
      if (hops[s] >= 0) {
        auto& h = histogram[s];
        h.resize(std::max(h.size(), static_cast<std::size_t>(hops[s]) + 1), 0.0);
        h[static_cast<std::size_t>(hops[s])] += static_cast<double>(nics);
      }
    }
  }
  std::vector<int> roots;
  for (std::size_t s = 0; s < n; ++s) {
    const double all = nics_in[static_cast<std::size_t>(component[s])];
    const auto above = [&](double share) {
      return std::count_if(histogram[s].begin(), histogram[s].end(),
                           [&](double bar) { return bar > share * all; });
    };
    if (all > 0 && above(0.9) == 1 && above(0.05) == 1) {
      roots_.push_back(switches_[s]);
      roots.push_back(static_cast<int>(s));
    }
  }
  return roots;
}

ForwardingTables::PortHops ForwardingTables::updn_port_hops(int leaf,
                                                            const std::vector<int>& rank) const {
  const std::size_t n = switches_.size();
  // A hop a -> b goes down when b is farther from the roots (a larger rank), or as far with the
  // larger index, or both are roots (updn_get_dir, read in the direction packets travel).
  const auto down = [&](std::size_t a, std::size_t b) {
    return (rank[a] == 0 && rank[b] == 0) || rank[b] > rank[a] ||
           (rank[b] == rank[a] && switches_[b] > switches_[a]);
  };
  // down_only[s]: hops to the leaf going down only; any[s]: up first, then down only.
  std::vector<int> down_only(n, kUnreachable);
  down_only[static_cast<std::size_t>(leaf)] = 0;
  std::deque<int> q{leaf};
  while (!q.empty()) {
    const int b = q.front();
    q.pop_front();
    for (const Port& p : ports_[static_cast<std::size_t>(b)]) {
      const auto a = static_cast<std::size_t>(p.remote_switch);
      if (p.remote_switch >= 0 && down_only[a] < 0 && down(a, static_cast<std::size_t>(b))) {
        down_only[a] = down_only[static_cast<std::size_t>(b)] + 1;
        q.push_back(p.remote_switch);
      }
    }
  }
  std::vector<int> any = down_only;
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t a = 0; a < n; ++a) {
      for (const Port& p : ports_[a]) {
        const auto b = static_cast<std::size_t>(p.remote_switch);
        if (p.remote_switch >= 0 && !down(a, b) && any[b] >= 0 &&
            (any[a] < 0 || any[b] + 1 < any[a])) {
          any[a] = any[b] + 1;
          changed = true;
        }
      }
    }
  }
  PortHops via(n);
  for (std::size_t a = 0; a < n; ++a) {
    for (const Port& p : ports_[a]) {
      const auto b = static_cast<std::size_t>(p.remote_switch);
      const int h = p.remote_switch < 0 ? kUnreachable : (down(a, b) ? down_only[b] : any[b]);
      via[a].push_back(h < 0 ? kUnreachable : h + 1);
    }
  }
  return via;
}

void ForwardingTables::route_updn() {
  const std::vector<int> roots = updn_roots();
  if (roots.empty()) {  // OpenSM: "disabling UPDN algorithm, no root nodes were found"
    route_minhop();
    return;
  }
  // Ranks: hops from the nearest root (updn_subn_rank); a switch no root reaches ranks last.
  std::vector<int> rank = hops_from(roots);
  std::replace(rank.begin(), rank.end(), kUnreachable, kUnranked);
  route_least_loaded([&](int leaf) { return updn_port_hops(leaf, rank); });
}

}  // namespace codesim::topologies
