// Phases of each collective algorithm, as flows between GPUs.
#include "sim/comm/collective.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>

#include "sim/comm/nccl_tuner.hpp"

namespace codesim::comm {
namespace {

using topologies::Flow;

Transfer ring_phase(const std::string& name, const std::vector<int>& ranks, core::Bytes chunk,
                    int repeat) {
  Transfer t{.name = name, .repeat = repeat};
  const std::size_t p = ranks.size();
  for (std::size_t r = 0; r < p; ++r) {
    t.flows.push_back(Flow{.src = ranks[r], .dst = ranks[(r + 1) % p], .bytes = chunk});
  }
  return t;
}

// A ring across nodes as NCCL runs it: one channel per GPU a node holds of the group, each
// carrying its share, channel c visiting each node's GPUs from the c-th on even nodes and
// backwards from the (c - 1)-th on odd ones, so that every node boundary joins two GPUs of the
// same position: the channels cross between nodes on different NICs, each on one rail (where
// NCCL's own ring enters and leaves a node on different GPUs, it moves the data to the rail's
// GPU over NVLink, PXN). Inside one node, or with one GPU per node: one ring in the group's order.
Transfer ring_by_channels(const std::string& name, const std::vector<int>& ranks, core::Bytes chunk,
                          int repeat, const topologies::Topology& t) {
  std::vector<std::vector<int>> nodes;  // in the order the group reaches them
  std::map<int, std::size_t> index;
  std::size_t channels = 1;
  for (const int gpu : ranks) {
    const int node = t.vertex(t.gpu(gpu)).node;
    const auto [it, fresh] = index.emplace(node, nodes.size());
    if (fresh) {
      nodes.emplace_back();
    }
    nodes[it->second].push_back(gpu);
    channels = std::max(channels, nodes[it->second].size());
  }
  if (nodes.size() < 2 || channels < 2) {
    return ring_phase(name, ranks, chunk, repeat);
  }
  Transfer out{.name = name, .repeat = repeat};
  for (std::size_t c = 0; c < channels; ++c) {
    std::vector<int> ring;
    for (std::size_t k = 0; k < nodes.size(); ++k) {
      const std::vector<int>& g = nodes[k];
      const std::size_t n = g.size();
      for (std::size_t i = 0; i < n; ++i) {
        ring.push_back(g[k % 2 == 0 ? (c + i) % n : (c + 2 * n - 1 - i) % n]);
      }
    }
    const Transfer one = ring_phase(name, ring, chunk / static_cast<double>(channels), repeat);
    out.flows.insert(out.flows.end(), one.flows.begin(), one.flows.end());
  }
  return out;
}

Transfer to_every_other(const std::string& name, const std::vector<int>& ranks, core::Bytes chunk) {
  return Transfer{.name = name, .every_pair = {.gpus = ranks, .bytes = chunk}};
}

[[noreturn]] void refuse(const CollectiveSpec& c) {
  throw std::invalid_argument(std::string(collective_kind_name(c.kind)) + " has no " +
                              std::string(collective_algorithm_name(c.algorithm)) + " algorithm");
}

// Hierarchical all-reduce: the group must be whole nodes, the same local indices on each.
std::vector<Transfer> hierarchical_all_reduce(const CollectiveSpec& c,
                                              const topologies::Topology& t) {
  const std::map<int, std::vector<int>> by_node = gpus_by_node(c.gpus, t);
  const int per_node = t.node_spec().gpus_per_node;
  for (const auto& [node, gpus] : by_node) {
    if (static_cast<int>(gpus.size()) != per_node) {
      throw std::invalid_argument("hierarchical all-reduce needs whole nodes: node " +
                                  std::to_string(node) + " has " + std::to_string(gpus.size()) +
                                  " of its " + std::to_string(per_node) + " GPUs in the group");
    }
  }
  const double g = per_node;
  const double m = static_cast<double>(by_node.size());
  std::vector<Transfer> phases;
  auto intra = [&](const std::string& name) {
    Transfer step{.name = name, .repeat = per_node - 1};
    for (const auto& [node, gpus] : by_node) {
      const Transfer ring = ring_phase(name, gpus, c.size / g, 1);
      step.flows.insert(step.flows.end(), ring.flows.begin(), ring.flows.end());
    }
    return step;
  };
  phases.push_back(intra("reduce-scatter in nodes"));
  if (by_node.size() > 1) {
    Transfer across{.name = "all-reduce across nodes",
                    .repeat = 2 * (static_cast<int>(by_node.size()) - 1)};
    for (int local = 0; local < per_node; ++local) {
      std::vector<int> rail;
      for (const auto& [node, gpus] : by_node) {
        rail.push_back(gpus[static_cast<std::size_t>(local)]);
      }
      const Transfer ring = ring_phase("", rail, c.size / (g * m), 1);
      across.flows.insert(across.flows.end(), ring.flows.begin(), ring.flows.end());
    }
    phases.push_back(std::move(across));
  }
  phases.push_back(intra("all-gather in nodes"));
  return phases;
}

// A balanced in-order binary tree over ranks[lo, hi): flows of `half` from each child up to its
// parent and back down; returns the tree's depth in edges.
int binary_tree(const std::vector<int>& ranks, std::size_t lo, std::size_t hi, int parent,
                core::Bytes half, std::vector<Flow>& flows) {
  if (lo >= hi) {
    return 0;
  }
  const std::size_t mid = lo + (hi - lo) / 2;
  const int me = ranks[mid];
  if (parent >= 0) {
    flows.push_back(Flow{.src = me, .dst = parent, .bytes = half});
    flows.push_back(Flow{.src = parent, .dst = me, .bytes = half});
  }
  const int below = std::max(binary_tree(ranks, lo, mid, me, half, flows),
                             binary_tree(ranks, mid + 1, hi, me, half, flows));
  return below + (parent >= 0 ? 1 : 0);
}

// Double binary tree: each half of the buffer reduced up one tree and broadcast down it,
// pipelined, both trees at once.
Transfer tree_all_reduce(const std::vector<int>& ranks, core::Bytes size) {
  Transfer t{.name = "all-reduce tree"};
  std::vector<int> reversed(ranks.rbegin(), ranks.rend());
  const int depth = std::max(binary_tree(ranks, 0, ranks.size(), -1, size / 2, t.flows),
                             binary_tree(reversed, 0, reversed.size(), -1, size / 2, t.flows));
  t.latency_steps = 2 * std::max(1, depth);
  return t;
}

// NVLink SHARP: every GPU sends its buffer into the switch and gets its reduced slice
// (S), then multicasts that slice (S / p out) and receives every other slice (S in); the load
// on each GPU's link, each way, is S (1 + 1/p), which a ring of that many bytes reproduces.
Transfer nvls_all_reduce(const CollectiveSpec& c, const topologies::Topology& t) {
  if (!t.node_spec().comm.nvls) {
    throw std::invalid_argument("nvls needs an NVSwitch that reduces (Hopper or later)");
  }
  if (gpus_by_node(c.gpus, t).size() != 1) {
    throw std::invalid_argument("nvls runs inside one NVSwitch domain; the group spans nodes");
  }
  const double p = static_cast<double>(c.gpus.size());
  Transfer ring = ring_phase("all-reduce nvls", c.gpus, c.size * (1 + 1 / p), 1);
  ring.latency_steps = 2;
  return ring;
}

// The largest number of bytes one rank sends to one other in the call.
core::Bytes largest_to_one_peer(const CollectiveSpec& c) {
  if (c.kind == CollectiveKind::send) {
    return c.size;
  }
  if (c.kind == CollectiveKind::all_to_all) {
    return c.size / static_cast<double>(c.gpus.size());
  }
  core::Bytes most;
  for (const auto& row : c.matrix) {
    for (const auto& bytes : row) {
      most = std::max(most, bytes);
    }
  }
  return most;
}

// NCCL's rate inside one node for the collective's phase, with `protocol`, against the node's
// NVLink: min(1, channels x the collective's rate per channel / NVLink) for collectives (NVLS:
// its assumed efficiency), the link efficiency of grouped point-to-point for all-to-all.
double efficiency_inside(const CollectiveSpec& c, const Transfer& phase,
                         const topologies::NodeSpec& node, NcclProtocolId protocol) {
  const hardware::CommCosts& k = node.comm;
  using K = CollectiveKind;
  using A = CollectiveAlgorithm;
  core::BytesPerSecond per_channel;
  switch (c.kind) {
    case K::all_to_all:
    case K::all_to_all_v:
      return k.all_to_all;
    case K::send:
      return 1;
    case K::all_gather:
      per_channel = k.all_gather_per_channel;
      break;
    case K::reduce_scatter:
      per_channel = k.reduce_scatter_per_channel;
      break;
    case K::all_reduce:
      if (c.algorithm == A::nvls) {
        return k.nvls_all_reduce;
      }
      per_channel = c.algorithm == A::tree   ? k.tree_all_reduce_per_channel
                    : c.algorithm == A::ring ? k.ring_all_reduce_per_channel
                    // hierarchical: its phases inside the nodes are a reduce-scatter and an
                    // all-gather ring
                    : phase.name == "reduce-scatter in nodes" ? k.reduce_scatter_per_channel
                                                              : k.all_gather_per_channel;
      break;
  }
  const int channels =
      nccl_channels_at(node, c.algorithm, protocol, static_cast<int>(c.gpus.size()), c.size);
  return std::min(1.0, channels * per_channel.value / node.nvlink_bandwidth.value);
}

bool inside_one_node(const Transfer& phase, const topologies::Topology& t) {
  bool inside = true;
  for (const auto& f : phase.flows) {
    inside = inside && t.vertex(t.gpu(f.src)).node == t.vertex(t.gpu(f.dst)).node;
  }
  for (const int gpu : phase.every_pair.gpus) {
    inside = inside && t.vertex(t.gpu(gpu)).node == t.vertex(t.gpu(phase.every_pair.gpus[0])).node;
  }
  return inside;
}

// The call's protocols and fixed cost on its first phase, the protocol NCCL runs, and each
// phase's efficiency where it stays inside one node. Point-to-point calls take NCCL's
// send/recv rule anywhere; a collective inside one node its tuner's choice; a collective across
// nodes the fastest protocol (NCCL's inter-node tuning needs the NIC and PCIe graph it
// searches, which codesim does not model).
void add_costs(std::vector<Transfer>& phases, const CollectiveSpec& c,
               const topologies::Topology& t) {
  const topologies::NodeSpec& node = t.node_spec();
  using K = CollectiveKind;
  const bool p2p = c.kind == K::all_to_all || c.kind == K::all_to_all_v || c.kind == K::send;
  std::vector<bool> in_node;
  for (const auto& phase : phases) {
    in_node.push_back(inside_one_node(phase, t));
  }
  const bool inside = std::ranges::all_of(in_node, [](bool b) { return b; });
  std::optional<NcclProtocolId> protocol;
  if (p2p) {
    protocol = nccl_p2p_protocol(largest_to_one_peer(c));
  } else if (inside) {
    protocol = nccl_collective_protocol(node, c.kind, c.algorithm, static_cast<int>(c.gpus.size()),
                                        c.size);
  }
  phases.front().calls = nccl_calls(node.comm, p2p);
  for (std::size_t i = 0; i < phases.size(); ++i) {
    Transfer& phase = phases[i];
    if (i > 0) {
      // The later phases of a hierarchical all-reduce: the same call, its costs paid once.
      for (const auto& call : phases.front().calls) {
        phase.calls.push_back({.efficiency = call.efficiency});
      }
    }
    if (protocol) {
      phase.chosen_call = static_cast<int>(*protocol);
    }
    if (in_node[i]) {
      // Across nodes nothing was measured: the links' rate. (A hierarchical call spanning
      // nodes runs the least-time protocol; its phases inside the nodes count Simple's channels,
      // all of them from 1 MiB.)
      phase.efficiency =
          efficiency_inside(c, phase, node, protocol.value_or(NcclProtocolId::simple));
    }
  }
}

}  // namespace

std::string_view collective_kind_name(CollectiveKind k) {
  switch (k) {
    case CollectiveKind::all_to_all:
      return "all-to-all";
    case CollectiveKind::all_to_all_v:
      return "all-to-all-v";
    case CollectiveKind::all_gather:
      return "all-gather";
    case CollectiveKind::reduce_scatter:
      return "reduce-scatter";
    case CollectiveKind::all_reduce:
      return "all-reduce";
    case CollectiveKind::send:
      return "send";
  }
  return "?";
}

std::string_view collective_algorithm_name(CollectiveAlgorithm a) {
  switch (a) {
    case CollectiveAlgorithm::ring:
      return "ring";
    case CollectiveAlgorithm::direct:
      return "direct";
    case CollectiveAlgorithm::hierarchical:
      return "hierarchical";
    case CollectiveAlgorithm::tree:
      return "tree";
    case CollectiveAlgorithm::nvls:
      return "nvls";
  }
  return "?";
}

std::map<int, std::vector<int>> gpus_by_node(const std::vector<int>& gpus,
                                             const topologies::Topology& t) {
  std::map<int, std::vector<int>> by_node;
  for (const int gpu : gpus) {
    by_node[t.vertex(t.gpu(gpu)).node].push_back(gpu);
  }
  return by_node;
}

std::vector<Transfer::Call> nccl_calls(const hardware::CommCosts& costs, bool point_to_point) {
  std::vector<Transfer::Call> calls;
  for (const auto& p : costs.protocols) {
    calls.push_back({.fixed_cost = point_to_point ? p.p2p_call : p.collective_call,
                     .efficiency = p.efficiency});
  }
  return calls;
}

std::string_view nccl_protocol_name(int call) {
  switch (call) {
    case 0:
      return "LL";
    case 1:
      return "LL128";
    case 2:
      return "Simple";
    default:
      return "";
  }
}

double bus_factor(CollectiveKind k, int ranks) {
  const double p = ranks;
  switch (k) {
    case CollectiveKind::all_reduce:
      return 2 * (p - 1) / p;
    case CollectiveKind::send:
      return 1;
    default:
      return (p - 1) / p;
  }
}

namespace {

// Every GPU once and inside the topology.
void check_members(const CollectiveSpec& c, const topologies::Topology& t) {
  if (c.gpus.size() < 2) {
    throw std::invalid_argument("a collective needs at least two GPUs");
  }
  std::set<int> seen;
  for (const int gpu : c.gpus) {
    if (gpu < 0 || gpu >= t.gpus()) {
      throw std::invalid_argument("GPU " + std::to_string(gpu) + " is not in the topology (" +
                                  std::to_string(t.gpus()) + " GPUs)");
    }
    if (!seen.insert(gpu).second) {
      throw std::invalid_argument("GPU " + std::to_string(gpu) + " appears twice");
    }
  }
}

// All-to-all-v: row i of the matrix is what GPU i sends to each other.
Transfer all_to_all_v(const CollectiveSpec& c) {
  const auto p = c.gpus.size();
  const std::string shape = std::to_string(p) + " x " + std::to_string(p);
  if (c.matrix.size() != p) {
    throw std::invalid_argument("all-to-all-v needs a " + shape + " matrix");
  }
  Transfer a2a{.name = "all-to-all-v"};
  for (std::size_t i = 0; i < p; ++i) {
    if (c.matrix[i].size() != p) {
      throw std::invalid_argument("all-to-all-v needs a " + shape + " matrix");
    }
    for (std::size_t j = 0; j < p; ++j) {
      if (i != j) {
        a2a.flows.push_back(Flow{.src = c.gpus[i], .dst = c.gpus[j], .bytes = c.matrix[i][j]});
      }
    }
  }
  return a2a;
}

// The phases of each collective by its algorithm (an algorithm it does not have is refused).
std::vector<Transfer> phases_of(const CollectiveSpec& c, const topologies::Topology& t) {
  const int p = static_cast<int>(c.gpus.size());
  const core::Bytes chunk = c.size / p;
  using K = CollectiveKind;
  using A = CollectiveAlgorithm;
  const auto only = [&c](A algorithm) {
    if (c.algorithm != algorithm) {
      refuse(c);
    }
  };
  switch (c.kind) {
    case K::all_to_all:
      only(A::direct);
      return {to_every_other("all-to-all", c.gpus, chunk)};
    case K::all_to_all_v:
      only(A::direct);
      return {all_to_all_v(c)};
    case K::all_gather:
    case K::reduce_scatter: {
      const std::string name(collective_kind_name(c.kind));
      if (c.algorithm == A::ring) {
        return {ring_by_channels(name, c.gpus, chunk, p - 1, t)};
      }
      only(A::direct);
      return {to_every_other(name, c.gpus, chunk)};
    }
    case K::all_reduce:
      switch (c.algorithm) {
        case A::ring:
          return {ring_by_channels("all-reduce", c.gpus, chunk, 2 * (p - 1), t)};
        case A::hierarchical:
          return hierarchical_all_reduce(c, t);
        case A::tree:
          return {tree_all_reduce(c.gpus, c.size)};
        case A::nvls:
          return {nvls_all_reduce(c, t)};
        default:
          refuse(c);
      }
      break;
    case K::send:
      only(A::direct);
      if (p != 2) {
        throw std::invalid_argument("send needs exactly two GPUs");
      }
      return {Transfer{.name = "send",
                       .flows = {Flow{.src = c.gpus[0], .dst = c.gpus[1], .bytes = c.size}}}};
  }
  refuse(c);
  return {};
}

}  // namespace

std::vector<Transfer> collective_transfers(const CollectiveSpec& c, const topologies::Topology& t,
                                           int first_index) {
  check_members(c, t);
  std::vector<Transfer> phases = phases_of(c, t);
  add_costs(phases, c, t);
  for (std::size_t i = 1; i < phases.size(); ++i) {
    phases[i].after = {first_index + static_cast<int>(i) - 1};
  }
  return phases;
}

}  // namespace codesim::comm
