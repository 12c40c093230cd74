// Bytes per directed link and the longest path latency of a set of GPU-to-GPU flows.
//
// A flow follows the topology's routing (routing.hpp): NVLink inside a node; PCIe, NIC and
// switches between nodes, crossing NVLink first on MPFT when the destination is in another plane.
// Between switches it takes the equal-cost shortest paths, either
//   even:   split evenly at every switch over the next hops that lead closer (adaptive routing /
//           packet spraying, the fluid limit), or
//   hashed: one path per flow, the next hop picked by a hash of (source, destination, hop), as
//           per-flow ECMP does (RoCE, Ethernet);
//   destination: one path per destination, as InfiniBand's linear forwarding tables give it
//           (d-mod-k, the closed form of what OpenSM's ftree builds on a full fat tree):
//           destinations are numbered by their leaf and their port on it (in each plane apart), the
//           candidates at a switch (next hops that lead closer) in order, and the i-th choice on
//           the way takes candidate (d / (c_1 ... c_{i-1})) mod c_i, so the destinations behind one
//           leaf leave every switch on different ports;
//   ftree, minhop, updn: one path per destination, through the forwarding tables those OpenSM
//           engines compute (forwarding.hpp);
// or, on Slim Fly and Dragonfly (routers), non-minimally:
//   valiant: every NIC pair's bytes detour through an intermediate router drawn uniformly among
//           all routers, each leg spread evenly over its minimal paths (the fluid limit of
//           per-packet Valiant: the source's bytes reach every router evenly, every router
//           sends 1/R of each destination's bytes on);
//   ugal:   a share of the bytes takes Valiant's detour and the rest the minimal paths, the share
//           (a multiple of 1/32) that minimizes the busiest link's time for the transfer: the
//           fluid limit of UGAL with global knowledge of the loads (UGAL-G), the same share for
//           every NIC pair of the transfer; ties go to the minimal paths.
// Each flow loads its NICs' links to their switches; what flows between the same two switches is
// summed before it is spread (the split at a switch does not depend on where its bytes came from),
// so an all-to-all over thousands of GPUs costs one walk per pair of leaves, not per GPU pair.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/core/units.hpp"
#include "topologies/forwarding.hpp"
#include "topologies/switch_distances.hpp"
#include "topologies/topology.hpp"

namespace codesim::topologies {

enum class Spread { even, hashed, destination, ftree, minhop, updn, valiant, ugal };
// One path per flow (hashed or by destination), not bytes split over paths.
bool one_path(Spread s);

enum class Via {
  shortest,  // NVLink inside a node, the network between nodes
  network,   // through the NICs even inside a node (RDMA loopback through the leaf switch)
};

struct Flow {
  int src = 0;  // GPU indices
  int dst = 0;
  core::Bytes bytes;
  Via via = Via::shortest;
  // Forwarding: a flow of hop h > 0 carries what a hop h - 1 flow brought, so its latency adds to
  // theirs; the bytes still move concurrently (the forwarder streams).
  int hop = 0;
};

// Every GPU of `gpus` sends `bytes` to every other one: an all-to-all kept as one term (over the
// 65,536 GPUs of a full FT3 it is 4.3e9 flows). Routed as those flows would be (Via::shortest,
// hop 0).
struct EveryPair {
  std::vector<int> gpus;  // distinct
  core::Bytes bytes;
};

// Directed link d = 2 * link id + 0 for the link's first vertex to its second (as in
// Topology::links()), + 1 for the other way.
inline int directed(int link_id, bool reverse) {
  return 2 * link_id + (reverse ? 1 : 0);
}

struct LinkLoads {
  std::vector<core::Bytes> bytes;  // per directed link
  // The longest path latency among the flows with bytes, summed over hops.
  core::Seconds latency;
};

// The same, listing only the directed links with bytes (in order): what a transfer over a
// million-GPU topology loads is a few thousand of its millions of links.
struct SparseLinkLoads {
  std::vector<std::pair<int, core::Bytes>> links;  // (directed link, bytes > 0)
  core::Seconds latency;
};

// Which links a report sums together: one kind of link between two kinds of vertex, in one
// direction. Compared by value; its name (tier_name) is for writers.
struct LinkTier {
  enum class Reach { any, local, global };  // router links of grouped routers: inside, between
  LinkKind link = LinkKind::ib;
  VertexKind from = VertexKind::nic;
  VertexKind to = VertexKind::leaf;
  Reach reach = Reach::any;
  auto operator<=>(const LinkTier&) const = default;
};
// "ib leaf -> spine"; Dragonfly's router links end in " (local)" or " (global)".
std::string tier_name(const LinkTier& tier);

class TrafficRouter {
 public:
  TrafficRouter(const Topology& topology, Spread spread);

  // The loads of `flows` and of every pair of `every` together. Throws std::out_of_range for a GPU
  // outside the topology, std::invalid_argument for a GPU twice in `every` and std::runtime_error
  // for a pair the network cannot join.
  LinkLoads loads(std::span<const Flow> flows, const EveryPair& every = {}) const;
  SparseLinkLoads sparse_loads(std::span<const Flow> flows, const EveryPair& every = {}) const;

  const Topology& topology() const { return *topology_; }
  // The endpoints of a directed link, in its direction.
  VertexId from(int directed_link) const;
  VertexId to(int directed_link) const;
  // "ib leaf3 -> nic_n0_1": the link's kind and its endpoints in its direction.
  std::string describe(int directed_link) const;
  // The tier of a directed link: its kind and its ends' kinds in its direction; router links of
  // a family with grouped routers (Dragonfly) split into those inside a group and between groups.
  LinkTier tier(int directed_link) const;
  // Switch-to-switch distances, kept per class of twin switches.
  const SwitchDistances& distances() const { return distances_; }

 private:
  struct NicPair {
    VertexId in;
    VertexId out;
    int hop = 0;
    bool operator==(const NicPair&) const = default;
  };
  struct NicPairHash {
    std::size_t operator()(const NicPair& p) const;
  };
  struct Segment {
    core::Bytes bytes;
    core::Seconds latency;  // of the path outside the switches, both ends
  };

  // Bytes per directed link as they are added, with the links that got some listed, so that a
  // sparse result, and clearing for the next call, cost what was touched.
  struct Tally {
    std::vector<core::Bytes> bytes;
    std::vector<int> touched;
    void add(int directed_link, core::Bytes b);
  };
  struct Frontier;
  using HopLatency = std::vector<core::Seconds>;
  // What the flows bring before the spread between switches: their local and NIC links, the
  // longest latency per hop, and the bytes per pair of switches (or NICs) at the network's ends.
  struct Gathered {
    Tally& out;
    HopLatency hop_latency;
    std::unordered_map<NicPair, Segment, NicPairHash> segments;
  };
  void gather(const Flow& f, Gathered& g) const;
  // Every pair at once where the spread is the same for every NIC pair behind two switches (not
  // hashed) and a pair's NICs are its GPUs' own (not MPFT): per GPU, its NVLink and NIC links
  // take bytes x the GPUs of the set on its node (other nodes); per pair of switches, bytes x
  // the pairs between their GPUs on different nodes. Otherwise pair by pair.
  void gather_every_pair(const EveryPair& every, Gathered& g) const;

  void add(Tally& out, VertexId from, EdgeId e, core::Bytes bytes) const;
  // NVLink (and PCIe) hops of one flow; returns the NIC pair it enters and leaves the network by,
  // or nothing when it stays in the node.
  bool local_part(const Flow& f, Tally& out, NicPair& nics, core::Seconds& latency) const;
  // The segments [first, last), all toward one NIC at one hop, spread evenly together (the split
  // at a vertex does not depend on where its bytes came from). Returns the longest path latency,
  // `outside` included.
  core::Seconds spread_even(std::span<const std::pair<NicPair, Segment>> toward, Frontier& f,
                            Tally& out) const;
  // Per hop, the longest path latency among its flows.
  static void note(HopLatency& h, int hop, core::Seconds latency);
  // Every segment (sorted by destination NIC and hop) over its minimal paths, evenly.
  void spread_minimal(std::span<const std::pair<NicPair, Segment>> ordered, Tally& out,
                      HopLatency& latency) const;
  // Every segment through every router as intermediate, 1/R of its bytes each (Valiant), summed
  // per hop over the whole transfer.
  void spread_valiant(std::span<const std::pair<NicPair, Segment>> ordered, Tally& out,
                      HopLatency& latency) const;
  // The share of Valiant's detour that minimizes the busiest link's time (UGAL-G).
  double ugal_share(const Tally& local, const Tally& minimal, const Tally& detour) const;
  // Every flow's bytes into `out` (left in it); returns the latency.
  core::Seconds tally(std::span<const Flow> flows, const EveryPair& every, Tally& out) const;
  // One path per flow, hashed or by destination; returns the path latency, `outside` included.
  core::Seconds spread_one_path(const Flow& f, const NicPair& nics, Tally& out,
                                core::Seconds outside) const;

  const Topology* topology_;
  Spread spread_;
  std::vector<VertexId> first_;    // per link id: the vertex its direction 0 starts from
  std::vector<VertexId> routers_;  // Slim Fly and Dragonfly routers: Valiant's intermediates
  std::vector<double> inverse_bandwidth_;                          // per link, s/B (UGAL only)
  std::unordered_map<VertexId, std::uint64_t> destination_index_;  // per NIC (destination only)
  std::shared_ptr<const ForwardingTables> tables_;                 // ftree, minhop, updn
  SwitchDistances distances_;
  mutable Tally scratch_;  // every directed link, zero between calls
  // The loads of every set of flows routed so far, by two independent 64-bit hashes of the flows
  // and the every-pair term: a step's program, its replay and its report route the same
  // transfers.
  struct KeyHash {
    std::size_t operator()(const std::pair<std::uint64_t, std::uint64_t>& k) const {
      return static_cast<std::size_t>(k.first);
    }
  };
  mutable std::unordered_map<std::pair<std::uint64_t, std::uint64_t>, SparseLinkLoads, KeyHash>
      routed_;
};

}  // namespace codesim::topologies
