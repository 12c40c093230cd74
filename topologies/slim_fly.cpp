// MMS graph construction.
#include "topologies/slim_fly.hpp"

#include <set>

namespace codesim::topologies {
namespace {

int mod(long long a, int q) {
  return static_cast<int>(((a % q) + q) % q);
}

int primitive_element(int q) {
  for (int g = 2; g < q; ++g) {
    long long x = 1;
    int order = 0;
    do {
      x = x * g % q;
      ++order;
    } while (x != 1);
    if (order == q - 1) {
      return g;
    }
  }
  return 1;  // q = 2, 3: not used
}

}  // namespace

bool is_prime(int q) {
  if (q < 2) {
    return false;
  }
  for (int d = 2; static_cast<long long>(d) * d <= q; ++d) {
    if (q % d == 0) {
      return false;
    }
  }
  return true;
}

std::vector<std::pair<int, int>> mms_graph_edges(int q) {
  const int xi = primitive_element(q);
  const int delta = q % 4 == 1 ? 1 : -1;
  const int w = (q - delta) / 4;
  std::vector<int> power(q - 1);
  power[0] = 1;
  for (int i = 1; i < q - 1; ++i) {
    power[i] = static_cast<int>(static_cast<long long>(power[i - 1]) * xi % q);
  }
  std::set<int> x_set;
  std::set<int> x_prime;
  if (delta == 1) {
    for (int i = 0; i < q - 1; i += 2) {
      x_set.insert(power[i]);
      x_prime.insert(power[i + 1]);
    }
  } else {
    for (int i = 0; i <= 2 * w - 2; i += 2) {
      x_set.insert(power[i]);
    }
    for (int i = 2 * w - 1; i <= 4 * w - 3; i += 2) {
      x_set.insert(power[i]);
    }
    for (int v : x_set) {
      x_prime.insert(static_cast<int>(static_cast<long long>(v) * xi % q));
    }
  }
  auto id = [q](int s, int x, int y) { return s * q * q + x * q + y; };
  std::vector<std::pair<int, int>> edges;
  for (int x = 0; x < q; ++x) {
    for (int y = 0; y < q; ++y) {
      for (int y2 = y + 1; y2 < q; ++y2) {
        if (x_set.contains(mod(y - y2, q))) {
          edges.emplace_back(id(0, x, y), id(0, x, y2));
        }
        if (x_prime.contains(mod(y - y2, q))) {
          edges.emplace_back(id(1, x, y), id(1, x, y2));
        }
      }
      for (int m = 0; m < q; ++m) {
        const int c = mod(y - static_cast<long long>(m) * x, q);
        edges.emplace_back(id(0, x, y), id(1, m, c));
      }
    }
  }
  return edges;
}

Topology build_slim_fly(const NetworkSpec& s, const NodeSpec& node, int nodes) {
  Topology t("slimfly", node);
  t.add_nodes(nodes, true);
  const int q = s.slimfly_q;
  std::vector<VertexId> routers;
  for (int r = 0; r < 2 * q * q; ++r) {
    routers.push_back(t.add_vertex(Vertex{.kind = VertexKind::router, .group = r / (q * q)}));
  }
  for (const auto& [a, b] : mms_graph_edges(q)) {
    t.add_switch_link(routers[a], routers[b]);
  }
  for (int e = 0; e < t.gpus(); ++e) {
    t.add_endpoint_link(t.nic(e), routers[e / s.endpoints_per_router]);
  }
  return t;
}

}  // namespace codesim::topologies
