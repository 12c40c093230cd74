// Topology building blocks shared by every generator.
#include "topologies/topology.hpp"

#include <algorithm>
#include <numeric>

namespace codesim::topologies {

std::string_view vertex_kind_name(VertexKind k) {
  switch (k) {
    case VertexKind::gpu:
      return "gpu";
    case VertexKind::nvswitch:
      return "nvswitch";
    case VertexKind::nic:
      return "nic";
    case VertexKind::leaf:
      return "leaf";
    case VertexKind::spine:
      return "spine";
    case VertexKind::core:
      return "core";
    case VertexKind::router:
      return "router";
  }
  return "";
}

std::string_view link_kind_name(LinkKind k) {
  switch (k) {
    case LinkKind::nvlink:
      return "nvlink";
    case LinkKind::pcie:
      return "pcie";
    case LinkKind::ib:
      return "ib";
    case LinkKind::ethernet:
      return "ethernet";
  }
  return "";
}

bool is_switch(VertexKind k) {
  return k == VertexKind::leaf || k == VertexKind::spine || k == VertexKind::core ||
         k == VertexKind::router;
}

NodeSpec node_spec_from(const hardware::HardwareSpec& h, core::Seconds switch_latency) {
  return NodeSpec{.gpus_per_node = h.gpus_per_node,
                  .nvlink_bandwidth = h.scale_up.bandwidth,
                  .nvlink_nominal_bandwidth = h.scale_up.nominal_bandwidth,
                  .architecture = h.gpu.architecture,
                  .nvlink_latency = h.scale_up.latency,
                  .pcie_bandwidth = h.pcie_bandwidth,
                  .nic_bandwidth = h.nic.bandwidth,
                  .nic_latency = h.nic.latency_same_leaf,
                  .switch_latency = switch_latency,
                  .comm = h.comm,
                  .nic_small_message_efficiency = h.nic.small_message_efficiency};
}

Topology::Topology(Family family, NodeSpec node) : family_(family), node_(node) {}

Topology::Topology(const Topology& other) {
  *this = other;
}

Topology::Topology(Topology&& other) noexcept {
  *this = std::move(other);
}

Topology& Topology::operator=(const Topology& other) {
  if (this != &other) {
    family_ = other.family_;
    node_ = other.node_;
    graph_ = other.graph_;
    gpus_ = other.gpus_;
    nics_ = other.nics_;
    nvswitches_ = other.nvswitches_;
    nodes_ = other.nodes_;
    plane_crossing_ = other.plane_crossing_;
    failed_planes_ = other.failed_planes_;
    reindex_links();
  }
  return *this;
}

Topology& Topology::operator=(Topology&& other) noexcept {
  if (this != &other) {
    family_ = other.family_;
    node_ = other.node_;
    graph_ = std::move(other.graph_);
    gpus_ = std::move(other.gpus_);
    nics_ = std::move(other.nics_);
    nvswitches_ = std::move(other.nvswitches_);
    nodes_ = other.nodes_;
    plane_crossing_ = other.plane_crossing_;
    failed_planes_ = std::move(other.failed_planes_);
    reindex_links();
    other.links_.clear();
  }
  return *this;
}

void Topology::reindex_links() {
  links_.assign(boost::num_edges(graph_), EdgeId{});
  for (const auto e : boost::make_iterator_range(boost::edges(graph_))) {
    links_[static_cast<std::size_t>(graph_[e].id)] = e;
  }
}

void Topology::set_failed_planes(const std::vector<int>& planes) {
  failed_planes_.assign(static_cast<std::size_t>(node_.gpus_per_node), false);
  for (int p : planes) {
    if (p >= 0 && p < node_.gpus_per_node) {
      failed_planes_[p] = true;
    }
  }
}

VertexId Topology::add_vertex(const Vertex& v) {
  return boost::add_vertex(v, graph_);
}

EdgeId Topology::add_link(VertexId a, VertexId b, LinkKind kind, core::BytesPerSecond bandwidth,
                          core::Seconds latency, int plane) {
  const int id = static_cast<int>(links_.size());
  // Parallel links are allowed (Dragonfly groups joined twice): the edge is always added.
  links_.push_back(boost::add_edge(a, b, Link{kind, bandwidth, latency, plane, id}, graph_).first);
  const EdgeId e = links_.back();
  return e;
}

void Topology::add_nodes(int nodes, bool with_nics) {
  const int per_node = node_.gpus_per_node;
  gpus_.reserve(gpus_.size() + static_cast<std::size_t>(nodes) * per_node);
  for (int n = 0; n < nodes; ++n) {
    const int node = nodes_ + n;
    const VertexId nvswitch = add_vertex(Vertex{.kind = VertexKind::nvswitch, .node = node});
    nvswitches_.push_back(nvswitch);
    for (int i = 0; i < per_node; ++i) {
      const VertexId g = add_vertex(Vertex{.kind = VertexKind::gpu, .node = node, .local = i});
      gpus_.push_back(g);
      // GPU -> NVSwitch -> GPU: half the end-to-end latency on each side.
      add_link(g, nvswitch, LinkKind::nvlink, node_.nvlink_bandwidth, node_.nvlink_latency / 2.0);
      if (with_nics) {
        const VertexId nic = add_vertex(Vertex{.kind = VertexKind::nic, .node = node, .local = i});
        nics_.push_back(nic);
        add_link(g, nic, LinkKind::pcie, node_.pcie_bandwidth, core::Seconds(0));
      }
    }
  }
  nodes_ += nodes;
}

EdgeId Topology::add_endpoint_link(VertexId nic, VertexId sw, int plane) {
  graph_[nic].plane = plane;
  return add_link(nic, sw, LinkKind::ib, node_.nic_bandwidth, node_.nic_latency / 2.0, plane);
}

EdgeId Topology::add_switch_link(VertexId a, VertexId b, int plane) {
  return add_link(a, b, LinkKind::ib, node_.nic_bandwidth, node_.switch_latency, plane);
}

std::vector<int> first_gpus(int n) {
  std::vector<int> g(static_cast<std::size_t>(std::max(0, n)));
  std::iota(g.begin(), g.end(), 0);
  return g;
}

std::optional<EdgeId> only_switch_link(const Topology& t, VertexId nic) {
  const Graph& g = t.graph();
  if (g[nic].kind != VertexKind::nic) {
    return std::nullopt;
  }
  std::optional<EdgeId> link;
  for (const auto e : boost::make_iterator_range(boost::out_edges(nic, g))) {
    if (is_switch(g[boost::target(e, g)].kind)) {
      if (link) {
        return std::nullopt;
      }
      link = e;
    }
  }
  return link;
}

}  // namespace codesim::topologies
