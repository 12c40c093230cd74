// ftree: OpenSM's fat-tree engine (osm_ucast_ftree.c: fabric_route_to_cns and the two
// recursions it calls), without reverse hops (off by default) or links inside a level (a fat
// tree built here has none).
#include <algorithm>
#include <map>
#include <stdexcept>

#include "topologies/forwarding.hpp"

namespace codesim::topologies {
namespace {

// The links between a switch and one neighbour switch (a port group).
struct Group {
  int remote = 0;              // switch index
  std::vector<int> ports;      // on this switch, in port order
  std::uint32_t downward = 0;  // routes going down through the group (up groups only)
};

}  // namespace

void ForwardingTables::route_ftree() {
  const std::size_t n = switches_.size();
  // Levels: hops from the nearest leaf; every switch link must join adjacent levels.
  const std::vector<int> level = hops_from(leaf_of_);
  std::vector<std::vector<Group>> up(n);
  std::vector<std::vector<Group>> down(n);
  std::vector<bool> has_nics(n, false);
  for (std::size_t s = 0; s < n; ++s) {
    std::map<VertexId, Group> above;
    std::map<VertexId, Group> below;
    for (std::size_t p = 0; p < ports_[s].size(); ++p) {
      const Port& port = ports_[s][p];
      if (port.remote_switch < 0) {
        has_nics[s] = true;
        continue;
      }
      const int step = level[static_cast<std::size_t>(port.remote_switch)] - level[s];
      if (step != 1 && step != -1) {
        throw std::invalid_argument(
            "ftree routes fat trees, whose switch links join adjacent levels; this network "
            "links two switches of one level: route it with minhop or updn");
      }
      Group& group = (step == 1 ? above : below)[port.remote];  // by the remote's index
      group.remote = port.remote_switch;
      group.ports.push_back(static_cast<int>(p));
    }
    for (auto& [vertex, group] : above) {
      up[s].push_back(std::move(group));
    }
    for (auto& [vertex, group] : below) {
      down[s].push_back(std::move(group));
    }
  }
  // Per port: routes going up over it (a down port) or down over it (an up port).
  std::vector<std::vector<std::uint32_t>> load(n);
  for (std::size_t s = 0; s < n; ++s) {
    load[s].assign(ports_[s].size(), 0);
  }
  const auto least_loaded = [&](int s, const Group& group) {
    int best = group.ports.front();
    for (const int p : group.ports) {
      if (load[static_cast<std::size_t>(s)][static_cast<std::size_t>(p)] <
          load[static_cast<std::size_t>(s)][static_cast<std::size_t>(best)]) {
        best = p;
      }
    }
    return best;
  };
  // Per destination: each switch's port toward it and its hops (-1: none yet).
  std::vector<std::uint16_t> lft(n);
  std::vector<int> hops(n);
  const auto set_route = [&](int s, int from_port_of_remote, int remote_hops) {
    const Port& p =
        ports_[static_cast<std::size_t>(s)][static_cast<std::size_t>(from_port_of_remote)];
    lft[static_cast<std::size_t>(p.remote_switch)] = static_cast<std::uint16_t>(p.remote_port);
    hops[static_cast<std::size_t>(p.remote_switch)] = remote_hops;
  };
  const auto longer_or_unset = [&](int s, int h) {
    return hops[static_cast<std::size_t>(s)] < 0 || h < hops[static_cast<std::size_t>(s)];
  };
  // fabric_route_upgoing_by_going_down: the switches below `s` (but the one we came up from)
  // route up to it over their group's least-loaded link; true where a NIC lies below.
  std::function<bool(int, int, int)> going_down = [&](int s, int came_from, int h) {
    bool created = has_nics[static_cast<std::size_t>(s)];
    for (const Group& group : down[static_cast<std::size_t>(s)]) {
      if (group.remote == came_from || !longer_or_unset(group.remote, h + 1)) {
        continue;
      }
      const int port = least_loaded(s, group);
      set_route(s, port, h + 1);
      if (going_down(group.remote, -1, h + 1)) {
        created = true;
        ++load[static_cast<std::size_t>(s)][static_cast<std::size_t>(port)];
      }
    }
    return created;
  };
  // fabric_route_downgoing_by_going_up: the main path climbs over the up group with the fewest
  // downward routes (then the lowest index) and counts them; the other upper switches get a
  // route down without counting it.
  std::function<bool(int, int, bool, int)> going_up = [&](int s, int came_from, bool main, int h) {
    bool created = going_down(s, came_from, h);
    auto& groups = up[static_cast<std::size_t>(s)];
    if (groups.empty()) {
      return created;
    }
    std::size_t chosen = 0;
    for (std::size_t i = 1; i < groups.size(); ++i) {
      if (groups[i].downward < groups[chosen].downward) {
        chosen = i;
      }
    }
    if (main) {
      Group& group = groups[chosen];
      const int port = least_loaded(s, group);
      ++group.downward;
      ++load[static_cast<std::size_t>(s)][static_cast<std::size_t>(port)];
      if (longer_or_unset(group.remote, h + 1)) {
        set_route(s, port, h + 1);
      }
      created = going_up(group.remote, s, true, h + 1) || created;
    }
    for (std::size_t i = 0; i < groups.size(); ++i) {
      const Group& group = groups[i];
      if ((main && i == chosen) || !longer_or_unset(group.remote, h + 1)) {
        continue;
      }
      set_route(s, least_loaded(s, group), h + 1);
      created = going_up(group.remote, s, false, h + 1) || created;
    }
    return created;
  };
  // fabric_route_to_cns: leaf by leaf, NIC by NIC; then dummies up to the fullest leaf's count.
  const std::vector<LeafRun> runs = leaf_runs();
  std::size_t most = 0;
  for (const LeafRun& run : runs) {
    most = std::max(most, run.end - run.begin);
  }
  for (const LeafRun& run : runs) {
    const auto leaf = static_cast<std::size_t>(run.leaf);
    for (std::size_t d = run.begin; d < run.end; ++d) {
      std::fill(lft.begin(), lft.end(), kNoRoute);
      std::fill(hops.begin(), hops.end(), -1);
      lft[leaf] = static_cast<std::uint16_t>(leaf_port_[d]);
      hops[leaf] = 1;
      going_up(run.leaf, -1, true, 1);
      std::copy(lft.begin(), lft.end(), table_.begin() + static_cast<std::ptrdiff_t>(d * n));
    }
    // A missing NIC: balances the counts, writes no table.
    for (std::size_t missing = run.end - run.begin; missing < most; ++missing) {
      std::fill(hops.begin(), hops.end(), -1);
      hops[leaf] = 1;
      going_up(run.leaf, -1, true, 1);
    }
  }
}

}  // namespace codesim::topologies
