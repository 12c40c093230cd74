// Candidates per kind; inside one node NCCL's tuner picks, across nodes each is timed alone and
// the fastest wins.
#include "sim/comm/algorithm_choice.hpp"

#include <algorithm>

#include "sim/comm/nccl_tuner.hpp"

namespace codesim::comm {

std::vector<CollectiveAlgorithm> candidate_algorithms(const CollectiveSpec& c,
                                                      const topologies::Topology& t,
                                                      bool multi_phase) {
  using K = CollectiveKind;
  using A = CollectiveAlgorithm;
  switch (c.kind) {
    case K::all_reduce: {
      std::vector<A> out{A::ring, A::tree};
      const auto per_node = gpus_by_node(c.gpus, t);
      if (per_node.size() == 1 && t.node_spec().comm.nvls) {
        out.push_back(A::nvls);
      }
      const bool whole_nodes = std::all_of(per_node.begin(), per_node.end(), [&](const auto& n) {
        return static_cast<int>(n.second.size()) == t.node_spec().gpus_per_node;
      });
      if (multi_phase && per_node.size() > 1 && whole_nodes) {
        out.push_back(A::hierarchical);
      }
      return out;
    }
    case K::all_gather:
    case K::reduce_scatter:
      return {A::ring};
    case K::all_to_all:
    case K::all_to_all_v:
    case K::send:
      return {A::direct};
  }
  return {A::ring};
}

core::Seconds time_alone(const std::vector<Transfer>& phases,
                         const topologies::TrafficRouter& router, const FoldedLinks& links) {
  double seconds = 0;
  for (const auto& phase : phases) {
    seconds += seconds_alone(phase, router, links);
  }
  return core::Seconds(seconds);
}

CollectiveAlgorithm fastest_algorithm(const CollectiveSpec& c,
                                      const topologies::TrafficRouter& router,
                                      const FoldedLinks& links, bool multi_phase) {
  const auto candidates = candidate_algorithms(c, router.topology(), multi_phase);
  if (candidates.size() > 1 && gpus_by_node(c.gpus, router.topology()).size() == 1) {
    return nccl_collective_algorithm(router.topology().node_spec(), c.kind, candidates,
                                     static_cast<int>(c.gpus.size()), c.size);
  }
  CollectiveAlgorithm best = candidates.front();
  double best_time = -1;
  for (const auto a : candidates) {
    CollectiveSpec trial = c;
    trial.algorithm = a;
    const double t =
        time_alone(collective_transfers(trial, router.topology(), 0), router, links).value;
    if (best_time < 0 || t < best_time) {
      best = a;
      best_time = t;
    }
  }
  return best;
}

}  // namespace codesim::comm
