// A cluster network as a Boost.Graph: typed vertices (GPUs, NVSwitches, NICs, switches) and
// full-duplex links with per-direction bandwidth, latency, kind and plane.
//
//   GPU ──NVLink── NVSwitch ──NVLink── GPU        one node = one NVLink domain
//    │                                  │
//   PCIe                               PCIe
//    │                                  │
//   NIC ──IB── leaf ──IB── spine ──IB── leaf ──IB── NIC
#pragma once

#include <boost/graph/adjacency_list.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/hardware/hardware_spec.hpp"
#include "sim/core/units.hpp"
#include "topologies/network_spec.hpp"

namespace codesim::topologies {

enum class VertexKind { gpu, nvswitch, nic, leaf, spine, core, router };
enum class LinkKind { nvlink, pcie, ib, ethernet };

std::string_view vertex_kind_name(VertexKind k);
std::string_view link_kind_name(LinkKind k);
bool is_switch(VertexKind k);  // leaf, spine, core, router

struct Vertex {
  VertexKind kind = VertexKind::gpu;
  int node = -1;   // GPUs, NVSwitches, NICs: the node; -1 for network switches
  int local = -1;  // GPUs and NICs: index inside the node
  int plane = -1;  // MPFT switches and NICs: their plane; -1 where there is one network
  int group = -1;  // leaf/spine/router: pod (FT3), rail (MRFT) or group (Dragonfly)
};

// A full-duplex link: `bandwidth` in each direction.
struct Link {
  LinkKind kind = LinkKind::ib;
  core::BytesPerSecond bandwidth;
  core::Seconds latency;
  int plane = -1;
  int id = 0;  // index in Topology::links()
};

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, Vertex, Link>;
using VertexId = Graph::vertex_descriptor;
using EdgeId = Graph::edge_descriptor;

// Figures of one node: how its GPUs, NVSwitch and NICs are joined.
struct NodeSpec {
  int gpus_per_node = 8;
  core::BytesPerSecond nvlink_bandwidth;  // per GPU per direction
  core::BytesPerSecond nvlink_nominal_bandwidth;  // the same, line rate (NCCL's channel search)
  hardware::Architecture architecture = hardware::Architecture::unknown;  // the GPUs'
  core::Seconds nvlink_latency;           // GPU to GPU through the NVSwitch
  core::BytesPerSecond pcie_bandwidth;
  core::BytesPerSecond nic_bandwidth;
  core::Seconds nic_latency;                // NIC to NIC through one leaf switch
  core::Seconds switch_latency;             // added per switch-to-switch link
  hardware::CommCosts comm;                 // what NCCL and DeepEP add (collective_transfers)
  double nic_small_message_efficiency = 1;  // hardware::NicSpec
};

// A node as the hardware spec describes it; switch_latency is added per switch-to-switch link.
NodeSpec node_spec_from(const hardware::HardwareSpec& h, core::Seconds switch_latency);

class Topology {
 public:
  Topology(Family family, NodeSpec node);
  // Edge descriptors point into the graph's storage, and Boost.Graph copies (rather than moves)
  // an adjacency_list: every copy or move re-derives links_ from the new graph.
  Topology(const Topology& other);
  Topology(Topology&& other) noexcept;
  Topology& operator=(const Topology& other);
  Topology& operator=(Topology&& other) noexcept;
  ~Topology() = default;

  // Building.
  VertexId add_vertex(const Vertex& v);
  EdgeId add_link(VertexId a, VertexId b, LinkKind kind, core::BytesPerSecond bandwidth,
                  core::Seconds latency, int plane = -1);
  // Adds `nodes` nodes of node_spec().gpus_per_node GPUs, each with an NVSwitch and, when
  // `with_nics`, one NIC per GPU over PCIe.
  void add_nodes(int nodes, bool with_nics);
  // NIC to switch, with the node spec's NIC bandwidth and half its same-leaf latency.
  EdgeId add_endpoint_link(VertexId nic, VertexId sw, int plane = -1);
  // Switch to switch, with the NIC bandwidth and the switch latency.
  EdgeId add_switch_link(VertexId a, VertexId b, int plane = -1);

  // Reading.
  Family family() const { return family_; }
  const NodeSpec& node_spec() const { return node_; }
  const Graph& graph() const { return graph_; }
  const Vertex& vertex(VertexId v) const { return graph_[v]; }
  const Link& link(EdgeId e) const { return graph_[e]; }
  const std::vector<EdgeId>& links() const { return links_; }
  int nodes() const { return nodes_; }
  int gpus() const { return static_cast<int>(gpus_.size()); }
  VertexId gpu(int global_index) const { return gpus_[global_index]; }
  VertexId gpu(int node, int local) const { return gpus_[node * node_.gpus_per_node + local]; }
  VertexId nic(int global_index) const { return nics_[global_index]; }
  bool has_nics() const { return !nics_.empty(); }
  VertexId nvswitch(int node) const { return nvswitches_[node]; }
  std::size_t vertex_count() const { return boost::num_vertices(graph_); }
  PlaneCrossing plane_crossing() const { return plane_crossing_; }
  void set_plane_crossing(PlaneCrossing c) { plane_crossing_ = c; }
  bool multi_plane() const { return family_ == Family::mpft; }
  // MPFT planes out of service: their traffic moves, over NVLink, to the next plane that works.
  void set_failed_planes(const std::vector<int>& planes);
  bool plane_failed(int plane) const {
    return plane >= 0 && plane < static_cast<int>(failed_planes_.size()) && failed_planes_[plane];
  }

 private:
  void reindex_links();

  Family family_ = Family::node;
  NodeSpec node_;
  Graph graph_;
  std::vector<EdgeId> links_;
  std::vector<VertexId> gpus_;
  std::vector<VertexId> nics_;
  std::vector<VertexId> nvswitches_;
  int nodes_ = 0;
  PlaneCrossing plane_crossing_ = PlaneCrossing::at_source;
  std::vector<bool> failed_planes_;
};

// GPUs 0 .. n-1: the group a command or a test takes from the start of a topology.
std::vector<int> first_gpus(int n);

// A NIC's link to its switch when it has exactly one (every family here); nothing otherwise (or
// for a vertex that is not a NIC). Where its bytes enter the switches.
std::optional<EdgeId> only_switch_link(const Topology& t, VertexId nic);

}  // namespace codesim::topologies
