// Per-pair BFS with predecessor lists, path counting and bounded enumeration.
#include "topologies/routing.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <stdexcept>
#include <unordered_map>

namespace codesim::topologies {
namespace {

// The NVLink hop pair a -> NVSwitch -> b inside one node.
void append_nvlink(const Topology& t, VertexId a, VertexId b, Path& p) {
  const VertexId sw = t.nvswitch(t.vertex(a).node);
  p.links.push_back(boost::edge(a, sw, t.graph()).first);
  p.vertices.push_back(sw);
  p.links.push_back(boost::edge(sw, b, t.graph()).first);
  p.vertices.push_back(b);
}

// Shortest NIC-to-NIC paths through switches only.
struct NetworkPaths {
  int hops = 0;
  std::uint64_t count = 0;
  std::vector<std::vector<EdgeId>> paths;  // edges from src NIC to dst NIC
};

NetworkPaths network_paths(const Topology& t, VertexId src, VertexId dst, std::size_t max_paths) {
  const Graph& g = t.graph();
  std::unordered_map<VertexId, int> dist{{src, 0}};
  std::unordered_map<VertexId, std::vector<EdgeId>> preds;
  std::unordered_map<VertexId, std::uint64_t> ways{{src, 1}};
  std::deque<VertexId> queue{src};
  int found = -1;
  while (!queue.empty()) {
    const VertexId v = queue.front();
    queue.pop_front();
    const int d = dist[v];
    if (found >= 0 && d >= found) {
      break;
    }
    if (v != src && !is_switch(g[v].kind)) {
      continue;  // only switches carry transit traffic
    }
    for (const auto e : boost::make_iterator_range(boost::out_edges(v, g))) {
      const VertexId u = boost::target(e, g);
      const VertexKind kind = g[u].kind;
      if (kind == VertexKind::gpu || kind == VertexKind::nvswitch ||
          (kind == VertexKind::nic && u != dst)) {
        continue;
      }
      const auto it = dist.find(u);
      if (it == dist.end()) {
        dist[u] = d + 1;
        queue.push_back(u);
      } else if (it->second != d + 1) {
        continue;
      }
      preds[u].push_back(e);
      ways[u] += ways[v];
      if (u == dst) {
        found = d + 1;
      }
    }
  }
  NetworkPaths out;
  if (found < 0) {
    return out;
  }
  out.hops = found;
  out.count = ways[dst];
  // Enumerate backwards from dst, depth first, up to max_paths.
  std::vector<EdgeId> stack;
  auto walk = [&](auto&& self, VertexId v) -> void {
    if (out.paths.size() >= max_paths) {
      return;
    }
    if (v == src) {
      out.paths.emplace_back(stack.rbegin(), stack.rend());
      return;
    }
    for (const EdgeId e : preds[v]) {
      stack.push_back(e);
      self(self, boost::source(e, g) == v ? boost::target(e, g) : boost::source(e, g));
      stack.pop_back();
    }
  };
  walk(walk, dst);
  return out;
}

}  // namespace

NetworkEnds network_ends(const Topology& t, int gpu_a, int gpu_b) {
  if (!t.multi_plane()) {
    return {gpu_a, gpu_b};
  }
  // The plane it travels in: the destination's (at_source) or the source's (at_destination), or
  // the next working plane after it when that one has failed.
  const int per_node = t.node_spec().gpus_per_node;
  const Vertex& va = t.vertex(t.gpu(gpu_a));
  const Vertex& vb = t.vertex(t.gpu(gpu_b));
  int plane = t.plane_crossing() == PlaneCrossing::at_source ? vb.local : va.local;
  for (int tries = 0; tries < per_node && t.plane_failed(plane); ++tries) {
    plane = (plane + 1) % per_node;
  }
  if (t.plane_failed(plane)) {
    throw std::runtime_error("every plane has failed");
  }
  return {va.node * per_node + plane, vb.node * per_node + plane};
}

PathSet route(const Topology& t, int gpu_a, int gpu_b, const RoutingOptions& options) {
  if (gpu_a < 0 || gpu_b < 0 || gpu_a >= t.gpus() || gpu_b >= t.gpus()) {
    throw std::out_of_range("GPU index outside the topology");
  }
  const VertexId a = t.gpu(gpu_a);
  const VertexId b = t.gpu(gpu_b);
  const Vertex& va = t.vertex(a);
  const Vertex& vb = t.vertex(b);
  PathSet set;
  if (gpu_a == gpu_b) {
    set.count = 1;
    set.paths.push_back(Path{{a}, {}});
    return set;
  }
  if (va.node == vb.node) {
    Path p{{a}, {}};
    append_nvlink(t, a, b, p);
    set.hops = 2;
    set.count = 1;
    set.paths.push_back(std::move(p));
    return set;
  }
  if (!t.has_nics()) {
    throw std::runtime_error("GPUs on different nodes but no network");
  }
  const NetworkEnds ends = network_ends(t, gpu_a, gpu_b);
  const VertexId enter = t.gpu(ends.enter);
  const VertexId leave = t.gpu(ends.leave);
  const VertexId nic_in = t.nic(ends.enter);
  const VertexId nic_out = t.nic(ends.leave);
  const NetworkPaths net = network_paths(t, nic_in, nic_out, options.max_paths);
  if (net.count == 0) {
    throw std::runtime_error("no route between the two GPUs");
  }
  const Graph& g = t.graph();
  for (const auto& edges : net.paths) {
    Path p{{a}, {}};
    if (enter != a) {
      append_nvlink(t, a, enter, p);
    }
    p.links.push_back(boost::edge(enter, nic_in, g).first);
    p.vertices.push_back(nic_in);
    for (const EdgeId e : edges) {
      const VertexId from = p.vertices.back();
      p.links.push_back(e);
      p.vertices.push_back(boost::source(e, g) == from ? boost::target(e, g) : boost::source(e, g));
    }
    p.links.push_back(boost::edge(nic_out, leave, g).first);
    p.vertices.push_back(leave);
    if (leave != b) {
      append_nvlink(t, leave, b, p);
    }
    set.paths.push_back(std::move(p));
  }
  set.count = net.count;
  set.hops = static_cast<int>(set.paths.front().links.size());
  set.switch_hops = net.hops - 2;  // minus the two NIC-to-switch links
  return set;
}

PathTiming path_timing(const Topology& t, int gpu_a, int gpu_b) {
  const PathSet set = route(t, gpu_a, gpu_b, {.max_paths = 1});
  PathTiming out;
  double slowest = std::numeric_limits<double>::infinity();  // the same GPU: no link
  for (const EdgeId e : set.paths.front().links) {
    const Link& l = t.graph()[e];
    out.latency += l.latency;
    slowest = std::min(slowest, l.bandwidth.value);
  }
  out.bandwidth = core::BytesPerSecond(slowest);
  return out;
}

}  // namespace codesim::topologies
