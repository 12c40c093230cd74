// NCCL's choice of algorithm, made the way NCCL makes it: by a cost model of each candidate
// (inside one node NCCL's own; across nodes the engine's: each phase alone on the network, fixed
// cost and latencies included).
#pragma once

#include <vector>

#include "sim/comm/collective.hpp"
#include "sim/comm/link_folding.hpp"

namespace codesim::comm {

// The algorithms NCCL would consider for the kind on this group: all-reduce ring, tree, nvls
// (inside one NVSwitch domain that reduces) and, with `multi_phase`, hierarchical (whole nodes);
// all-gather and reduce-scatter ring; all-to-all and send direct.
std::vector<CollectiveAlgorithm> candidate_algorithms(const CollectiveSpec& c,
                                                      const topologies::Topology& t,
                                                      bool multi_phase);

// The phases' time alone on the network, one after another.
core::Seconds time_alone(const std::vector<Transfer>& phases,
                         const topologies::TrafficRouter& router, const FoldedLinks& links);

// Inside one node, the candidate NCCL's tuner predicts fastest (nccl_tuner.hpp); across nodes,
// where codesim does not model NCCL's inter-node graph, the fastest alone on the network (ties:
// the first in candidate order).
CollectiveAlgorithm fastest_algorithm(const CollectiveSpec& c,
                                      const topologies::TrafficRouter& router,
                                      const FoldedLinks& links, bool multi_phase = true);

}  // namespace codesim::comm
