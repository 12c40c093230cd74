// Expert placement: contiguous and EPLB-style balanced packing.
#include "sim/core/error.hpp"
#include "models/kernels/placement.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace codesim::kernels {
namespace {

// Replicates the experts of `members` into `slots` copies (each at least once), the next copy
// always to the expert with the highest load per copy, then packs the copies onto `gpus`
// (slots / gpus.size() each), heaviest first onto the least-loaded GPU that has room and no copy
// of that expert yet.
void replicate_and_pack(const std::vector<int>& members, const std::vector<double>& load, int slots,
                        const std::vector<int>& gpus, Placement& out) {
  std::vector<int> copies(members.size(), 1);
  for (int extra = slots - static_cast<int>(members.size()); extra > 0; --extra) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < members.size(); ++i) {
      if (load[members[i]] / copies[i] > load[members[best]] / copies[best]) {
        best = i;
      }
    }
    ++copies[best];
  }
  struct Copy {
    int expert;
    double load;
  };
  std::vector<Copy> all;
  for (std::size_t i = 0; i < members.size(); ++i) {
    for (int c = 0; c < copies[i]; ++c) {
      all.push_back({members[i], load[members[i]] / copies[i]});
    }
  }
  std::stable_sort(all.begin(), all.end(),
                   [](const Copy& a, const Copy& b) { return a.load > b.load; });
  const int per_gpu = slots / static_cast<int>(gpus.size());
  std::vector<double> gpu_load(gpus.size(), 0);
  std::vector<int> used(gpus.size(), 0);
  for (const Copy& c : all) {
    int best = -1;
    for (std::size_t g = 0; g < gpus.size(); ++g) {
      const auto& held = out.replicas[c.expert];
      const bool has = std::find(held.begin(), held.end(), gpus[g]) != held.end();
      if (used[g] < per_gpu && !has && (best < 0 || gpu_load[g] < gpu_load[best])) {
        best = static_cast<int>(g);
      }
    }
    if (best < 0) {  // every GPU with room already has a copy: allow a second one
      for (std::size_t g = 0; g < gpus.size(); ++g) {
        if (used[g] < per_gpu && (best < 0 || gpu_load[g] < gpu_load[best])) {
          best = static_cast<int>(g);
        }
      }
    }
    ++used[best];
    gpu_load[best] += c.load;
    out.replicas[c.expert].push_back(gpus[best]);
  }
}

}  // namespace

Placement contiguous_placement(int experts, int ep, int gpus_per_node) {
  if (ep <= 0 || experts % ep != 0) {
    throw core::KeyedError("parallelism.ep", "ep = " + std::to_string(ep) + " must divide the " +
                                                 std::to_string(experts) + " experts");
  }
  Placement p{experts, ep, gpus_per_node, std::vector<std::vector<int>>(experts)};
  const int per_gpu = experts / ep;
  for (int e = 0; e < experts; ++e) {
    p.replicas[e] = {e / per_gpu};
  }
  return p;
}

Placement eplb_placement(const std::vector<double>& load, int ep, int gpus_per_node, int redundant,
                         EplbPolicy policy, int groups) {
  const int experts = static_cast<int>(load.size());
  const int slots = experts + redundant;
  if (ep <= 0 || slots % ep != 0) {
    throw core::KeyedError("inference.redundant_experts",
                           "experts + redundant = " + std::to_string(slots) +
                               " must divide evenly over ep = " + std::to_string(ep));
  }
  Placement p{experts, ep, gpus_per_node, std::vector<std::vector<int>>(experts)};
  const int nodes = p.nodes();
  if (policy == EplbPolicy::global || nodes <= 1 || groups % nodes != 0 ||
      ep % gpus_per_node != 0) {
    std::vector<int> all(experts);
    std::iota(all.begin(), all.end(), 0);
    std::vector<int> gpus(ep);
    std::iota(gpus.begin(), gpus.end(), 0);
    replicate_and_pack(all, load, slots, gpus, p);
    return p;
  }
  // Hierarchical: balance whole groups over nodes, then replicate within each node.
  const int per_group = experts / groups;
  std::vector<double> group_load(groups, 0);
  for (int e = 0; e < experts; ++e) {
    group_load[e / per_group] += load[e];
  }
  std::vector<int> order(groups);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return group_load[a] > group_load[b]; });
  const int groups_per_node = groups / nodes;
  std::vector<std::vector<int>> node_groups(nodes);
  std::vector<double> node_load(nodes, 0);
  for (int g : order) {
    int best = -1;
    for (int n = 0; n < nodes; ++n) {
      if (static_cast<int>(node_groups[n].size()) < groups_per_node &&
          (best < 0 || node_load[n] < node_load[best])) {
        best = n;
      }
    }
    node_groups[best].push_back(g);
    node_load[best] += group_load[g];
  }
  for (int n = 0; n < nodes; ++n) {
    std::vector<int> members;
    for (int g : node_groups[n]) {
      for (int e = g * per_group; e < (g + 1) * per_group; ++e) {
        members.push_back(e);
      }
    }
    std::vector<int> gpus(gpus_per_node);
    std::iota(gpus.begin(), gpus.end(), n * gpus_per_node);
    replicate_and_pack(members, load, slots / nodes, gpus, p);
  }
  return p;
}

}  // namespace codesim::kernels
