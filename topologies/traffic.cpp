// Flows -> per-directed-link bytes: NVLink, PCIe and NIC links per flow, the switch part per pair
// of switches.
#include "topologies/traffic.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

#include "topologies/export.hpp"
#include "topologies/family.hpp"
#include "topologies/mix.hpp"
#include "topologies/routing.hpp"

namespace codesim::topologies {
namespace {

VertexId other_end(const Graph& g, EdgeId e, VertexId v) {
  return boost::source(e, g) == v ? boost::target(e, g) : boost::source(e, g);
}

}  // namespace

bool one_path(Spread s) {
  return s == Spread::hashed || s == Spread::destination || s == Spread::ftree ||
         s == Spread::minhop || s == Spread::updn;
}

// Per-call scratch for the even spread, indexed by vertex; `level[d]` holds the vertices d hops
// from the destination that bytes have reached.
struct TrafficRouter::Frontier {
  explicit Frontier(std::size_t vertices) : amount(vertices, 0.0), latency(vertices, 0.0) {}
  std::vector<double> amount;
  std::vector<double> latency;
  std::vector<std::vector<VertexId>> level;
};

std::size_t TrafficRouter::NicPairHash::operator()(const NicPair& p) const {
  return static_cast<std::size_t>(
      mix((static_cast<std::uint64_t>(p.in) * 0x100000001ULL + p.out) * 8 + p.hop));
}

TrafficRouter::TrafficRouter(const Topology& topology, Spread spread)
    : topology_(&topology), spread_(spread), distances_(topology) {
  const Graph& g = topology.graph();
  first_.reserve(topology.links().size());
  for (const EdgeId e : topology.links()) {
    first_.push_back(boost::source(e, g));
    if (spread == Spread::ugal) {
      inverse_bandwidth_.push_back(1.0 / g[e].bandwidth.value);
    }
  }
  for (const auto v : boost::make_iterator_range(boost::vertices(g))) {
    if (g[v].kind == VertexKind::router) {
      routers_.push_back(v);
    }
  }
  if (spread == Spread::destination) {
    // Destinations by leaf, then by port on it (the order OpenSM's ftree gives their LIDs),
    // numbered in each plane apart: d = the leaf's rank x its most NICs + the NIC's rank on it.
    std::map<std::pair<int, VertexId>, std::vector<VertexId>> by_leaf;  // (plane, leaf)
    for (const auto v : boost::make_iterator_range(boost::vertices(g))) {
      if (g[v].kind == VertexKind::nic) {
        const auto up = only_switch_link(topology, v);
        const VertexId leaf = up ? boost::target(*up, g) : v;
        by_leaf[{g[v].plane, leaf}].push_back(v);
      }
    }
    std::size_t ports = 1;
    for (const auto& [leaf, nics] : by_leaf) {
      ports = std::max(ports, nics.size());
    }
    std::map<int, std::uint64_t> leaves_in_plane;
    for (const auto& [leaf, nics] : by_leaf) {
      const std::uint64_t rank = leaves_in_plane[leaf.first]++;
      for (std::size_t i = 0; i < nics.size(); ++i) {
        destination_index_[nics[i]] = rank * ports + i;
      }
    }
  }
  if (spread == Spread::ftree || spread == Spread::minhop || spread == Spread::updn) {
    const RoutingEngine engine = spread == Spread::ftree    ? RoutingEngine::ftree
                                 : spread == Spread::minhop ? RoutingEngine::minhop
                                                            : RoutingEngine::updn;
    tables_ = std::make_shared<const ForwardingTables>(topology, engine);
  }
  if ((spread == Spread::valiant || spread == Spread::ugal) && routers_.empty()) {
    throw std::invalid_argument(
        "Valiant and UGAL routing detour through routers: Slim Fly and Dragonfly only");
  }
}

VertexId TrafficRouter::from(int directed_link) const {
  const EdgeId e = topology_->links()[static_cast<std::size_t>(directed_link / 2)];
  const VertexId first = first_[static_cast<std::size_t>(directed_link / 2)];
  return directed_link % 2 == 0 ? first : other_end(topology_->graph(), e, first);
}

VertexId TrafficRouter::to(int directed_link) const {
  return other_end(topology_->graph(),
                   topology_->links()[static_cast<std::size_t>(directed_link / 2)],
                   from(directed_link));
}

std::string TrafficRouter::describe(int directed_link) const {
  const auto kind =
      topology_->link(topology_->links()[static_cast<std::size_t>(directed_link / 2)]).kind;
  return std::string(link_kind_name(kind)) + " " + vertex_label(*topology_, from(directed_link)) +
         " -> " + vertex_label(*topology_, to(directed_link));
}

LinkTier TrafficRouter::tier(int directed_link) const {
  const Graph& g = topology_->graph();
  const Vertex& a = g[from(directed_link)];
  const Vertex& b = g[to(directed_link)];
  LinkTier out{
      .link = topology_->link(topology_->links()[static_cast<std::size_t>(directed_link / 2)]).kind,
      .from = a.kind,
      .to = b.kind};
  if (descriptor(topology_->family()).grouped_routers && a.kind == VertexKind::router &&
      b.kind == VertexKind::router) {
    out.reach = a.group == b.group ? LinkTier::Reach::local : LinkTier::Reach::global;
  }
  return out;
}

std::string tier_name(const LinkTier& tier) {
  std::string out = std::string(link_kind_name(tier.link)) + " " +
                    std::string(vertex_kind_name(tier.from)) + " -> " +
                    std::string(vertex_kind_name(tier.to));
  switch (tier.reach) {
    case LinkTier::Reach::any:
      break;
    case LinkTier::Reach::local:
      out += " (local)";
      break;
    case LinkTier::Reach::global:
      out += " (global)";
      break;
  }
  return out;
}

void TrafficRouter::add(Tally& out, VertexId from, EdgeId e, core::Bytes bytes) const {
  const int id = topology_->link(e).id;
  out.add(directed(id, first_[static_cast<std::size_t>(id)] != from), bytes);
}

bool TrafficRouter::local_part(const Flow& f, Tally& out, NicPair& nics,
                               core::Seconds& latency) const {
  const Topology& t = *topology_;
  const Graph& g = t.graph();
  const VertexId a = t.gpu(f.src);
  const VertexId b = t.gpu(f.dst);
  latency = core::Seconds(0);
  auto nvlink = [&](VertexId x, VertexId y) {
    const VertexId sw = t.nvswitch(g[x].node);
    const EdgeId up = boost::edge(x, sw, g).first;
    const EdgeId down = boost::edge(sw, y, g).first;
    add(out, x, up, f.bytes);
    add(out, sw, down, f.bytes);
    latency += g[up].latency + g[down].latency;
  };
  if (f.src == f.dst) {
    return false;
  }
  const bool same_node = g[a].node == g[b].node;
  // On MPFT two NICs of one node sit in different planes: NVLink is the only way between them.
  const bool planes_apart = t.multi_plane() && g[a].local != g[b].local;
  if (same_node && (f.via == Via::shortest || planes_apart || !t.has_nics())) {
    nvlink(a, b);
    return false;
  }
  if (!t.has_nics()) {
    throw std::runtime_error("GPUs on different nodes but no network");
  }
  const NetworkEnds ends = same_node ? NetworkEnds{f.src, f.dst} : network_ends(t, f.src, f.dst);
  const VertexId enter = t.gpu(ends.enter);
  const VertexId leave = t.gpu(ends.leave);
  nics = NicPair{t.nic(ends.enter), t.nic(ends.leave)};
  if (enter != a) {
    nvlink(a, enter);
  }
  const EdgeId pcie_in = boost::edge(enter, nics.in, g).first;
  const EdgeId pcie_out = boost::edge(nics.out, leave, g).first;
  add(out, enter, pcie_in, f.bytes);
  add(out, nics.out, pcie_out, f.bytes);
  latency += g[pcie_in].latency + g[pcie_out].latency;
  if (leave != b) {
    nvlink(leave, b);
  }
  return true;
}

core::Seconds TrafficRouter::spread_even(std::span<const std::pair<NicPair, Segment>> toward,
                                         Frontier& f, Tally& out) const {
  const Graph& g = topology_->graph();
  const VertexId destination = toward.front().first.out;
  const SwitchDistances::View dist = distances_.to(destination);
  // Bytes enter at their source NICs, with the latency of their path outside the switches.
  auto arrive = [&](VertexId v, double bytes, double latency) {
    if (f.amount[v] == 0.0) {
      f.level[static_cast<std::size_t>(dist[v])].push_back(v);
      f.latency[v] = latency;
    } else {
      f.latency[v] = std::max(f.latency[v], latency);
    }
    f.amount[v] += bytes;
  };
  for (const auto& [nics, segment] : toward) {
    const int d = dist[nics.in];
    if (d < 0) {
      throw std::runtime_error("no route between the two GPUs");
    }
    if (f.level.size() <= static_cast<std::size_t>(d)) {
      f.level.resize(static_cast<std::size_t>(d) + 1);
    }
    arrive(nics.in, segment.bytes.value, segment.latency.value);
  }
  // Level by level toward the destination NIC: each vertex splits what reaches it evenly over
  // its links to vertices one hop closer; latency is the longest way in.
  std::vector<EdgeId> hops;
  for (std::size_t d = f.level.size() - 1; d > 0; --d) {
    for (const VertexId v : f.level[d]) {
      hops.clear();
      for (const auto e : boost::make_iterator_range(boost::out_edges(v, g))) {
        const VertexId u = boost::target(e, g);
        if (dist[u] == dist[v] - 1 && (u == destination || is_switch(g[u].kind))) {
          hops.push_back(e);
        }
      }
      const double share = f.amount[v] / static_cast<double>(hops.size());
      for (const EdgeId e : hops) {
        add(out, v, e, core::Bytes(share));
        arrive(boost::target(e, g), share, f.latency[v] + g[e].latency.value);
      }
      f.amount[v] = 0.0;
    }
    f.level[d].clear();
  }
  f.level[0].clear();
  f.amount[destination] = 0.0;
  return core::Seconds(f.latency[destination]);
}

core::Seconds TrafficRouter::spread_one_path(const Flow& flow, const NicPair& nics, Tally& out,
                                             core::Seconds outside) const {
  const Graph& g = topology_->graph();
  const SwitchDistances::View dist = distances_.to(nics.out);
  if (dist[nics.in] < 0) {
    throw std::runtime_error("no route between the two GPUs");
  }
  const std::uint64_t key =
      mix(static_cast<std::uint64_t>(flow.src) << 32 | static_cast<std::uint32_t>(flow.dst));
  const bool by_destination = spread_ == Spread::destination;
  std::uint64_t d = by_destination ? destination_index_.at(nics.out) : 0;
  std::vector<EdgeId> hops;
  VertexId v = nics.in;
  core::Seconds latency = outside;
  // The next hop from v: the switch's table, else one of the next hops that lead closer, by the
  // destination's digit or by hash.
  const auto next_hop = [&](std::uint64_t step) {
    if (tables_ && is_switch(g[v].kind)) {
      return tables_->next(v, nics.out);  // the tables hold no loop
    }
    hops.clear();
    for (const auto e : boost::make_iterator_range(boost::out_edges(v, g))) {
      const VertexId u = boost::target(e, g);
      if (dist[u] == dist[v] - 1 && (u == nics.out || is_switch(g[u].kind))) {
        hops.push_back(e);
      }
    }
    if (!by_destination) {
      return hops[mix(key + step) % hops.size()];
    }
    // The ports in order; the destination's digit in their count picks one.
    std::sort(hops.begin(), hops.end(),
              [&](EdgeId x, EdgeId y) { return boost::target(x, g) < boost::target(y, g); });
    const EdgeId e = hops[d % hops.size()];
    d /= hops.size();
    return e;
  };
  for (std::uint64_t step = 0; v != nics.out; ++step) {
    const EdgeId e = next_hop(step);
    add(out, v, e, flow.bytes);
    latency += g[e].latency;
    v = boost::target(e, g);
  }
  return latency;
}

void TrafficRouter::note(HopLatency& h, int hop, core::Seconds latency) {
  if (static_cast<int>(h.size()) <= hop) {
    h.resize(static_cast<std::size_t>(hop) + 1);
  }
  h[static_cast<std::size_t>(hop)] = std::max(h[static_cast<std::size_t>(hop)], latency);
}

void TrafficRouter::spread_minimal(std::span<const std::pair<NicPair, Segment>> ordered, Tally& out,
                                   HopLatency& latency) const {
  Frontier frontier(topology_->vertex_count());
  // Toward one destination NIC at a time (and one hop, which keeps its own latency).
  for (auto first = ordered.begin(); first != ordered.end();) {
    const auto last = std::find_if(first, ordered.end(), [&](const auto& s) {
      return s.first.out != first->first.out || s.first.hop != first->first.hop;
    });
    note(latency, first->first.hop, spread_even({first, last}, frontier, out));
    first = last;
  }
}

void TrafficRouter::spread_valiant(std::span<const std::pair<NicPair, Segment>> ordered, Tally& out,
                                   HopLatency& latency) const {
  // By linearity only what each switch sends and receives at each hop matters.
  using HopEnd = std::pair<int, VertexId>;  // (hop, switch)
  std::map<HopEnd, Segment> sent;
  std::map<HopEnd, core::Bytes> received;
  for (const auto& [ends, segment] : ordered) {
    Segment& from = sent[{ends.hop, ends.in}];
    from.bytes += segment.bytes;
    from.latency = std::max(from.latency, segment.latency);
    received[{ends.hop, ends.out}] += segment.bytes;
  }
  Frontier frontier(topology_->vertex_count());
  const double share = 1.0 / static_cast<double>(routers_.size());
  std::vector<std::pair<NicPair, Segment>> toward;
  for (auto first = sent.begin(); first != sent.end();) {
    const int hop = first->first.first;
    const auto last = sent.lower_bound({hop + 1, VertexId{0}});
    // Leg 1: from every source switch to every router.
    core::Seconds first_leg;
    for (const VertexId r : routers_) {
      toward.clear();
      for (auto it = first; it != last; ++it) {
        toward.push_back({NicPair{it->first.second, r, hop},
                          Segment{it->second.bytes * share, it->second.latency}});
      }
      first_leg = std::max(first_leg, spread_even(toward, frontier, out));
    }
    // Leg 2: from every router to every destination switch.
    core::Seconds second_leg;
    for (auto it = received.lower_bound({hop, VertexId{0}});
         it != received.end() && it->first.first == hop; ++it) {
      toward.clear();
      for (const VertexId r : routers_) {
        toward.push_back(
            {NicPair{r, it->first.second, hop}, Segment{it->second * share, core::Seconds(0)}});
      }
      second_leg = std::max(second_leg, spread_even(toward, frontier, out));
    }
    note(latency, hop, first_leg + second_leg);
    first = last;
  }
}

double TrafficRouter::ugal_share(const Tally& local, const Tally& minimal,
                                 const Tally& detour) const {
  constexpr int kSteps = 32;
  double best_share = 0;
  double best_time = 0;
  for (int step = 0; step <= kSteps; ++step) {
    const double share = static_cast<double>(step) / kSteps;
    double busiest = 0;
    for (std::size_t d = 0; d < local.bytes.size(); ++d) {
      const double bytes = local.bytes[d].value + (1 - share) * minimal.bytes[d].value +
                           share * detour.bytes[d].value;
      busiest = std::max(busiest, bytes * inverse_bandwidth_[d / 2]);
    }
    if (step == 0 || busiest < best_time * (1 - 1e-9)) {
      best_share = share;
      best_time = busiest;
    }
  }
  return best_share;
}

core::Seconds TrafficRouter::tally(std::span<const Flow> flows, const EveryPair& every,
                                   Tally& out) const {
  Gathered gathered{.out = out};
  for (const Flow& f : flows) {
    gather(f, gathered);
  }
  gather_every_pair(every, gathered);
  // Longest path per hop; hops add up (a forwarded flow starts when the first hop arrives).
  HopLatency& hop_latency = gathered.hop_latency;
  const auto& segments = gathered.segments;
  std::vector<std::pair<NicPair, Segment>> ordered(segments.begin(), segments.end());
  std::sort(ordered.begin(), ordered.end(), [](const auto& x, const auto& y) {
    return std::tie(x.first.out, x.first.hop, x.first.in) <
           std::tie(y.first.out, y.first.hop, y.first.in);
  });
  if (spread_ == Spread::even) {
    spread_minimal(ordered, out, hop_latency);
  } else if (!ordered.empty()) {
    Tally minimal;  // UGAL's other choice
    Tally detour;
    detour.bytes.assign(out.bytes.size(), core::Bytes(0));
    HopLatency minimal_latency;
    HopLatency detour_latency;
    if (spread_ == Spread::ugal) {
      minimal.bytes.assign(out.bytes.size(), core::Bytes(0));
      spread_minimal(ordered, minimal, minimal_latency);
    }
    spread_valiant(ordered, detour, detour_latency);
    const double share = spread_ == Spread::ugal ? ugal_share(out, minimal, detour) : 1.0;
    for (const int d : detour.touched) {
      out.add(d, detour.bytes[static_cast<std::size_t>(d)] * share);
    }
    for (const int d : minimal.touched) {
      out.add(d, minimal.bytes[static_cast<std::size_t>(d)] * (1 - share));
    }
    for (const auto& [taken, latencies] :
         {std::pair{share < 1, &minimal_latency}, std::pair{share > 0, &detour_latency}}) {
      for (std::size_t hop = 0; taken && hop < latencies->size(); ++hop) {
        note(hop_latency, static_cast<int>(hop), (*latencies)[hop]);
      }
    }
  }
  core::Seconds latency;
  for (const core::Seconds l : hop_latency) {
    latency += l;
  }
  return latency;
}

}  // namespace codesim::topologies
