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

std::size_t at(int i) {
  return static_cast<std::size_t>(i);
}

}  // namespace

// The engine's state over the switches: each one's port groups up and down, the routes counted
// over each port, and the destination being routed (each switch's port toward it and hops).
class ForwardingTables::Ftree {
 public:
  explicit Ftree(const ForwardingTables& t)
      : ports_(t.ports_),
        up_(t.switches_.size()),
        down_(t.switches_.size()),
        has_nics_(t.switches_.size(), false),
        load_(t.switches_.size()),
        lft_(t.switches_.size()),
        hops_(t.switches_.size()) {
    // Levels: hops from the nearest leaf; every switch link must join adjacent levels.
    const std::vector<int> level = t.hops_from(t.leaf_of_);
    for (std::size_t s = 0; s < ports_.size(); ++s) {
      group_ports(s, level);
      load_[s].assign(ports_[s].size(), 0);
    }
  }

  // The tables toward one destination, from its leaf reached over `leaf_port` (-1: a missing
  // NIC, which balances the counts and writes no table).
  const std::vector<std::uint16_t>& route(int leaf, int leaf_port) {
    std::fill(lft_.begin(), lft_.end(), kNoRoute);
    std::fill(hops_.begin(), hops_.end(), -1);
    if (leaf_port >= 0) {
      lft_[at(leaf)] = static_cast<std::uint16_t>(leaf_port);
    }
    hops_[at(leaf)] = 1;
    going_up(leaf, -1, true, 1);
    return lft_;
  }

 private:
  void group_ports(std::size_t s, const std::vector<int>& level) {
    std::map<VertexId, Group> above;
    std::map<VertexId, Group> below;
    for (std::size_t p = 0; p < ports_[s].size(); ++p) {
      const Port& port = ports_[s][p];
      if (port.remote_switch < 0) {
        has_nics_[s] = true;
        continue;
      }
      const int step = level[at(port.remote_switch)] - level[s];
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
      up_[s].push_back(std::move(group));
    }
    for (auto& [vertex, group] : below) {
      down_[s].push_back(std::move(group));
    }
  }

  int least_loaded(int s, const Group& group) const {
    int best = group.ports.front();
    for (const int p : group.ports) {
      if (load_[at(s)][at(p)] < load_[at(s)][at(best)]) {
        best = p;
      }
    }
    return best;
  }

  // The switch behind `s`'s port routes toward the destination over the same link, at `hops`.
  void set_route(int s, int port, int hops) {
    const Port& p = ports_[at(s)][at(port)];
    lft_[at(p.remote_switch)] = static_cast<std::uint16_t>(p.remote_port);
    hops_[at(p.remote_switch)] = hops;
  }

  bool longer_or_unset(int s, int h) const { return hops_[at(s)] < 0 || h < hops_[at(s)]; }

  // fabric_route_upgoing_by_going_down: the switches below `s` (but the one we came up from)
  // route up to it over their group's least-loaded link; true where a NIC lies below.
  bool going_down(int s, int came_from, int h) {
    bool created = has_nics_[at(s)];
    for (const Group& group : down_[at(s)]) {
      if (group.remote == came_from || !longer_or_unset(group.remote, h + 1)) {
        continue;
      }
      const int port = least_loaded(s, group);
      set_route(s, port, h + 1);
      if (going_down(group.remote, -1, h + 1)) {
        created = true;
        ++load_[at(s)][at(port)];
      }
    }
    return created;
  }

  // fabric_route_downgoing_by_going_up: the main path climbs over the up group with the fewest
  // downward routes (then the lowest index) and counts them; the other upper switches get a
  // route down without counting it.
  bool going_up(int s, int came_from, bool main, int h) {
    bool created = going_down(s, came_from, h);
    auto& groups = up_[at(s)];
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
      ++load_[at(s)][at(port)];
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
  }

  const std::vector<std::vector<Port>>& ports_;
  std::vector<std::vector<Group>> up_;
  std::vector<std::vector<Group>> down_;
  std::vector<bool> has_nics_;
  std::vector<std::vector<std::uint32_t>> load_;  // per port: routes over it, up or down
  std::vector<std::uint16_t> lft_;                // per switch: its port toward the destination
  std::vector<int> hops_;                         // and its hops (-1: none yet)
};

void ForwardingTables::route_ftree() {
  Ftree ftree(*this);
  const std::size_t n = switches_.size();
  // fabric_route_to_cns: leaf by leaf, NIC by NIC; then dummies up to the fullest leaf's count.
  const std::vector<LeafRun> runs = leaf_runs();
  std::size_t most = 0;
  for (const LeafRun& run : runs) {
    most = std::max(most, run.end - run.begin);
  }
  for (const LeafRun& run : runs) {
    for (std::size_t d = run.begin; d < run.end; ++d) {
      const auto& lft = ftree.route(run.leaf, leaf_port_[d]);
      std::copy(lft.begin(), lft.end(), table_.begin() + static_cast<std::ptrdiff_t>(d * n));
    }
    for (std::size_t missing = run.end - run.begin; missing < most; ++missing) {
      ftree.route(run.leaf, -1);
    }
  }
}

}  // namespace codesim::topologies
