// MMS graph construction.
#include "topologies/slim_fly.hpp"

#include <algorithm>
#include <set>

#include "sim/core/arithmetic.hpp"

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

long long slim_fly_routers_needed(int q, int endpoints_per_router, long long endpoints) {
  return std::min(2LL * q * q,
                  core::ceil_div(endpoints, static_cast<long long>(endpoints_per_router)));
}

SlimFlyBuild slim_fly_build(int q, long long routers) {
  // Which routers: rows of both halves in turn. In what order: by MMS id, as at full size.
  std::vector<bool> built(static_cast<std::size_t>(2 * q * q), false);
  long long taken = 0;
  for (int x = 0; x < q; ++x) {
    for (int half = 0; half < 2; ++half) {
      for (int y = 0; y < q && taken < routers; ++y, ++taken) {
        built[static_cast<std::size_t>(half * q * q + x * q + y)] = true;
      }
    }
  }
  SlimFlyBuild out;
  std::vector<int> position(built.size(), -1);
  for (int id = 0; id < 2 * q * q; ++id) {
    if (built[static_cast<std::size_t>(id)]) {
      position[static_cast<std::size_t>(id)] = static_cast<int>(out.routers.size());
      out.routers.push_back(id);
    }
  }
  for (const auto& [a, b] : mms_graph_edges(q)) {
    const int pa = position[static_cast<std::size_t>(a)];
    const int pb = position[static_cast<std::size_t>(b)];
    if (pa >= 0 && pb >= 0) {
      out.links.emplace_back(pa, pb);
    }
  }
  return out;
}

Topology build_slim_fly(const NetworkSpec& s, const NodeSpec& node, int nodes) {
  Topology t(Family::slimfly, node);
  t.add_nodes(nodes, true);
  const int q = s.slimfly_q;
  const SlimFlyBuild built =
      slim_fly_build(q, slim_fly_routers_needed(q, s.endpoints_per_router, t.gpus()));
  std::vector<VertexId> routers;
  for (const int id : built.routers) {
    routers.push_back(t.add_vertex(Vertex{.kind = VertexKind::router, .group = id / (q * q)}));
  }
  for (const auto& [a, b] : built.links) {
    t.add_switch_link(routers[static_cast<std::size_t>(a)], routers[static_cast<std::size_t>(b)]);
  }
  for (int e = 0; e < t.gpus(); ++e) {
    t.add_endpoint_link(t.nic(e), routers[static_cast<std::size_t>(e / s.endpoints_per_router)]);
  }
  return t;
}

}  // namespace codesim::topologies
