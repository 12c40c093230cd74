// Collectives as transfers: which GPU sends how many bytes to which, phase by phase.
//
// `size` follows NCCL tests: the buffer each rank holds (all-reduce: its input = output;
// all-gather: the gathered output; reduce-scatter: the input before scattering; all-to-all: all
// it sends, including the share it keeps; send: the message). With p ranks and n = S / p:
//
//   all-to-all (v)     one phase: every rank sends n (or its row of the matrix) to every other
//   all-gather ring    p - 1 phases: rank r sends n to rank r + 1
//   reduce-scatter ring  the same traffic as all-gather ring
//   all-reduce ring    2 (p - 1) phases of n to the next rank: t = 2 (p - 1) (alpha + n / B)
//   all-reduce hierarchical (g GPUs per node, m nodes): reduce-scatter ring inside each node
//                      (g - 1 phases of S / g), all-reduce ring across nodes among GPUs of the
//                      same local index (2 (m - 1) phases of S / (g m)), all-gather ring inside
//                      each node (g - 1 phases of S / g)
//   all-reduce tree    NCCL's double binary tree: two in-order binary trees over the ranks (the
//                      second over them reversed), each reducing half of S up to its root and
//                      broadcasting it down, pipelined: one phase, 2 x depth latencies
//   all-reduce nvls    NVLink SHARP inside one NVSwitch domain: the switch reduces and
//                      multicasts, so each GPU moves S (1 + 1/p) each way through it, 2 latencies
//   send               one phase: rank 0 sends S to rank 1
//
// Every call pays the node's fixed cost (NCCL collective or point-to-point call), and a phase
// whose flows all stay inside one node moves its bytes at the algorithm's measured efficiency
// (hardware::CommCosts); across nodes nothing was measured and the efficiency is 1.
//
// Bus bandwidth is NCCL's: algorithm bandwidth S / t times (p - 1) / p (all-gather,
// reduce-scatter, all-to-all), 2 (p - 1) / p (all-reduce) or 1 (send).
#pragma once

#include <map>
#include <string_view>
#include <vector>

#include "sim/comm/transfer.hpp"
#include "sim/core/units.hpp"
#include "topologies/topology.hpp"

namespace codesim::comm {

enum class CollectiveKind {
  all_to_all,
  all_to_all_v,
  all_gather,
  reduce_scatter,
  all_reduce,
  send
};
enum class CollectiveAlgorithm { ring, direct, hierarchical, tree, nvls };

std::string_view collective_kind_name(CollectiveKind k);
std::string_view collective_algorithm_name(CollectiveAlgorithm a);

struct CollectiveSpec {
  CollectiveKind kind = CollectiveKind::all_reduce;
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::ring;
  std::vector<int> gpus;  // the ranks, in ring order
  core::Bytes size;
  // all-to-all-v: bytes[i][j] from rank i to rank j (size is ignored).
  std::vector<std::vector<core::Bytes>> matrix;
};

// The phases, chained (each after the previous), numbered from `first_index` in the run's list.
// Throws std::invalid_argument for fewer than two ranks, a repeated or missing GPU, a matrix of
// the wrong shape, an algorithm the kind does not have (all-to-all: direct; all-gather and
// reduce-scatter: ring or direct; all-reduce: ring, tree, nvls or hierarchical; send: direct), a
// hierarchical group that is not whole nodes of the topology, or nvls outside one NVSwitch
// domain or on hardware without it.
std::vector<Transfer> collective_transfers(const CollectiveSpec& c, const topologies::Topology& t,
                                           int first_index);

// The group's GPUs per node of the topology, in group order (hierarchical all-reduce needs whole
// nodes, NVLS one node).
std::map<int, std::vector<int>> gpus_by_node(const std::vector<int>& gpus,
                                             const topologies::Topology& t);

// NCCL's protocols as a transfer's calls (Transfer::calls): each protocol's fixed cost for a
// collective, or for a point-to-point call (send/recv, all-to-all), and its payload fraction.
std::vector<Transfer::Call> nccl_calls(const hardware::CommCosts& costs, bool point_to_point);

// The names of NCCL's protocols, in nccl_calls' order.
std::string_view nccl_protocol_name(int call);

// NCCL's bus bandwidth factor for p ranks.
double bus_factor(CollectiveKind k, int ranks);

}  // namespace codesim::comm
