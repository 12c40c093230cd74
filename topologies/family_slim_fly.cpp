// Slim Fly (MMS graphs, slim_fly.hpp): its descriptor, checks and closed form.
#include <algorithm>
#include <array>
#include <deque>
#include <string>

#include "topologies/family.hpp"
#include "topologies/slim_fly.hpp"

namespace codesim::topologies {
namespace {

constexpr std::array<std::string_view, 2> kSlimFlyReads = {"slimfly_q", "endpoints_per_router"};

long long slim_fly_capacity(const NetworkSpec& s) {
  return 2LL * s.slimfly_q * s.slimfly_q * s.endpoints_per_router;
}

void slim_fly_problems(const NetworkSpec& s, int, int, std::vector<SpecProblem>& p) {
  if (!is_prime(s.slimfly_q) || s.slimfly_q < 5) {
    p.push_back(
        {"slimfly_q",
         "must be a prime of at least 5 (codesim builds MMS graphs over prime fields), got " +
             std::to_string(s.slimfly_q)});
  }
  if (s.endpoints_per_router < 1) {
    p.push_back({"endpoints_per_router",
                 "must be at least 1, got " + std::to_string(s.endpoints_per_router)});
  }
}

// Longest shortest path among n routers joined by `links` (BFS from each; -1 if disconnected).
int router_diameter(int n, const std::vector<std::pair<int, int>>& links) {
  std::vector<std::vector<int>> next(static_cast<std::size_t>(n));
  for (const auto& [a, b] : links) {
    next[static_cast<std::size_t>(a)].push_back(b);
    next[static_cast<std::size_t>(b)].push_back(a);
  }
  int diameter = 0;
  std::vector<int> dist(static_cast<std::size_t>(n));
  for (int src = 0; src < n; ++src) {
    std::fill(dist.begin(), dist.end(), -1);
    dist[static_cast<std::size_t>(src)] = 0;
    std::deque<int> queue{src};
    while (!queue.empty()) {
      const int v = queue.front();
      queue.pop_front();
      for (const int u : next[static_cast<std::size_t>(v)]) {
        if (dist[static_cast<std::size_t>(u)] < 0) {
          dist[static_cast<std::size_t>(u)] = dist[static_cast<std::size_t>(v)] + 1;
          queue.push_back(u);
        }
      }
    }
    for (const int d : dist) {
      if (d < 0) {
        return -1;
      }
      diameter = std::max(diameter, d);
    }
  }
  return diameter;
}

FamilyForm slim_fly_closed_form(const NetworkSpec& s, const NodeSpec& node, long long nodes) {
  const long long q = s.slimfly_q;
  const long long delta = q % 4 == 1 ? 1 : (q % 4 == 3 ? -1 : 0);
  const long long gpus = nodes * node.gpus_per_node;
  const long long routers = slim_fly_routers_needed(s.slimfly_q, s.endpoints_per_router, gpus);
  FamilyForm f;
  if (routers == 2 * q * q) {
    f.switches = 2 * q * q;
    f.switch_links = q * q * (3 * q - delta) / 2;
    f.diameter = 2;
  } else {
    // Fewer routers (slim_fly.hpp): count the MMS links among them, measure the diameter.
    const SlimFlyBuild built = slim_fly_build(s.slimfly_q, routers);
    f.switches = routers;
    f.switch_links = static_cast<long long>(built.links.size());
    f.diameter = router_diameter(static_cast<int>(routers), built.links);
  }
  // No closed form for the minimum bisection of an MMS graph: estimate it by a random balanced
  // split of the routers. Each of L links among n routers crosses it with probability
  // (n/2)^2 / (n(n-1)/2) = n / (2(n-1)).
  f.bisection_exact = false;
  const auto n = static_cast<double>(f.switches);
  f.cut_links = static_cast<double>(f.switch_links) * n / (2.0 * (n - 1.0));
  return f;
}

}  // namespace

extern const FamilyDescriptor kSlimFlyFamily = {
    .family = Family::slimfly,
    .name = "slimfly",
    .alias = "sf",
    .summary = "Slim Fly: 2q^2 routers joined as an MMS graph, diameter 2",
    .reads = kSlimFlyReads,
    .detour_routing = true,
    .capacity = slim_fly_capacity,
    .problems = slim_fly_problems,
    .build = build_slim_fly,
    .closed_form = slim_fly_closed_form,
};

}  // namespace codesim::topologies
