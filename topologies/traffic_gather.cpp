// What each flow and each every-pair term hands to the spreads: the loads of the links between a
// GPU and its network end (NVLink, PCIe, NIC to switch), and per pair of network ends the bytes
// and the longest latency still to spread between them.
#include <map>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include "topologies/traffic.hpp"  // TrafficRouter's members defined here beside traffic.cpp

namespace codesim::topologies {
namespace {

// A network end (a NIC's switch, or the NIC) with the set's GPUs behind it per node, and the
// longest latency from a GPU to it and back.
struct End {
  double gpus = 0;
  std::map<int, double> per_node;
  core::Seconds up;
  core::Seconds down;
};

struct LocalEnds {
  std::map<VertexId, End> ends;
  std::map<int, std::pair<core::Seconds, core::Seconds>> nvlink;  // per node: slowest up, down
};

// Every GPU of the set sends `bytes` to each other one: its NVLink links carry that times the
// set's GPUs on its node, its PCIe and NIC links that times those on other nodes
// (`add(from, link, times)`); the ends those leave the node at.
template <class Add>
LocalEnds local_ends(const Topology& t, const EveryPair& every,
                     const std::unordered_map<int, int>& on_node, Add&& add) {
  const Graph& g = t.graph();
  const double n = static_cast<double>(every.gpus.size());
  LocalEnds out;
  for (const int gpu : every.gpus) {
    const VertexId a = t.gpu(gpu);
    const int node = g[a].node;
    const double same = on_node.at(node) - 1;
    const double remote = n - 1 - same;
    if (same > 0) {
      const VertexId sw = t.nvswitch(node);
      const EdgeId up = boost::edge(a, sw, g).first;
      const EdgeId down = boost::edge(sw, a, g).first;
      add(a, up, same);
      add(sw, down, same);
      auto& [slowest_up, slowest_down] = out.nvlink[node];
      slowest_up = std::max(slowest_up, g[up].latency);
      slowest_down = std::max(slowest_down, g[down].latency);
    }
    if (remote == 0) {
      continue;
    }
    if (!t.has_nics()) {
      throw std::runtime_error("GPUs on different nodes but no network");
    }
    const VertexId nic = t.nic(gpu);
    const EdgeId pcie_in = boost::edge(a, nic, g).first;
    const EdgeId pcie_out = boost::edge(nic, a, g).first;
    add(a, pcie_in, remote);
    add(nic, pcie_out, remote);
    core::Seconds up = g[pcie_in].latency;
    core::Seconds down = g[pcie_out].latency;
    VertexId end = nic;
    if (const auto link = only_switch_link(t, nic)) {
      end = boost::target(*link, g);
      add(nic, *link, remote);
      add(end, *link, remote);
      up += g[*link].latency;
      down += g[*link].latency;
    }
    End& e = out.ends[end];
    e.gpus += 1;
    e.per_node[node] += 1;
    e.up = std::max(e.up, up);
    e.down = std::max(e.down, down);
  }
  return out;
}

}  // namespace

void TrafficRouter::gather(const Flow& f, Gathered& gathered) const {
  const Topology& t = *topology_;
  if (f.src < 0 || f.dst < 0 || f.src >= t.gpus() || f.dst >= t.gpus()) {
    throw std::out_of_range("GPU index outside the topology");
  }
  if (f.hop < 0) {
    throw std::out_of_range("a flow's hop cannot be negative");
  }
  if (f.bytes.value <= 0.0) {
    return;
  }
  Tally& out = gathered.out;
  NicPair nics{};
  core::Seconds outside;
  if (!local_part(f, out, nics, outside)) {
    note(gathered.hop_latency, f.hop, outside);
    return;
  }
  if (one_path(spread_)) {
    note(gathered.hop_latency, f.hop, spread_one_path(f, nics, out, outside));
    return;
  }
  // Every byte crosses the NICs' links to their switches; between those switches the bytes of
  // all NIC pairs behind them spread alike (exact by linearity), so they are summed there.
  const Graph& g = t.graph();
  NicPair ends{nics.in, nics.out, f.hop};
  if (const auto up = only_switch_link(t, nics.in)) {
    add(out, nics.in, *up, f.bytes);
    outside += g[*up].latency;
    ends.in = boost::target(*up, g);
  }
  if (const auto down = only_switch_link(t, nics.out)) {
    ends.out = boost::target(*down, g);
    add(out, ends.out, *down, f.bytes);
    outside += g[*down].latency;
  }
  Segment& s = gathered.segments[ends];
  s.bytes += f.bytes;
  s.latency = std::max(s.latency, outside);
}

void TrafficRouter::gather_every_pair(const EveryPair& every, Gathered& gathered) const {
  const Topology& t = *topology_;
  const Graph& g = t.graph();
  std::unordered_map<int, int> on_node;  // GPUs of the set per node
  for (const int gpu : every.gpus) {
    if (gpu < 0 || gpu >= t.gpus()) {
      throw std::out_of_range("GPU index outside the topology");
    }
    ++on_node[g[t.gpu(gpu)].node];
  }
  if (std::set<int>(every.gpus.begin(), every.gpus.end()).size() != every.gpus.size()) {
    throw std::invalid_argument("an every-pair transfer names a GPU twice");
  }
  if (every.gpus.size() < 2 || every.bytes.value <= 0.0) {
    return;
  }
  if (one_path(spread_) || t.multi_plane()) {
    for (const int a : every.gpus) {
      for (const int b : every.gpus) {
        if (a != b) {
          gather(Flow{.src = a, .dst = b, .bytes = every.bytes}, gathered);
        }
      }
    }
    return;
  }
  const LocalEnds local = local_ends(t, every, on_node, [&](VertexId from, EdgeId e, double share) {
    add(gathered.out, from, e, every.bytes * share);
  });
  const auto& [ends, nvlink] = local;
  // The longest latency: the slowest way up and the slowest way down (one latency per kind of
  // link in every topology built here, so the two belong to some pair).
  for (const auto& [node, slowest] : nvlink) {
    note(gathered.hop_latency, 0, slowest.first + slowest.second);
  }
  for (const auto& [from, x] : ends) {
    for (const auto& [to, y] : ends) {
      double pairs = x.gpus * y.gpus;  // less those on one node, which NVLink joins
      for (const auto& [node, count] : x.per_node) {
        const auto it = y.per_node.find(node);
        pairs -= it == y.per_node.end() ? 0 : count * it->second;
      }
      if (pairs > 0) {
        Segment& s = gathered.segments[NicPair{from, to, 0}];
        s.bytes += every.bytes * pairs;
        s.latency = std::max(s.latency, x.up + y.down);
      }
    }
  }
}

}  // namespace codesim::topologies
