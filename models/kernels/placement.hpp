// Where experts live: logical experts -> GPUs of one expert-parallel group -> nodes.
//
// contiguous: expert e on GPU e / (experts / ep) (DeepSeek-V3 EP64: 4 experts per GPU, one
//             32-expert group per node, so group-limited routing is node-limited routing).
// EPLB-style, with `redundant` extra replicas of the hottest experts, from measured loads:
//   global:       replicate the experts with the highest load per replica, then pack replicas
//                 heaviest first onto the least-loaded GPU with a free slot;
//   hierarchical: first pack whole expert groups onto nodes (balanced), then replicate and pack
//                 within each node (needs nodes to divide the groups).
#pragma once

#include <vector>

namespace codesim::kernels {

struct Placement {
  int experts = 0;
  int ep = 0;
  int gpus_per_node = 8;
  std::vector<std::vector<int>> replicas;  // per logical expert, the GPUs holding a copy

  int node_of(int gpu) const { return gpu / gpus_per_node; }
  int nodes() const { return (ep + gpus_per_node - 1) / gpus_per_node; }
  // The GPU serving `token`'s request for `expert`: replicas take tokens in turn.
  int gpu_for(int expert, int token) const {
    const auto& r = replicas[expert];
    return r[static_cast<std::size_t>(token) % r.size()];
  }
};

enum class EplbPolicy { global, hierarchical };

// Throws std::invalid_argument unless ep divides experts.
Placement contiguous_placement(int experts, int ep, int gpus_per_node);

// `load` per logical expert; (experts + redundant) must divide evenly over ep GPUs; hierarchical
// needs the node count to divide `groups`.
Placement eplb_placement(const std::vector<double>& load, int ep, int gpus_per_node, int redundant,
                         EplbPolicy policy, int groups);

}  // namespace codesim::kernels
