// NCCL's own rules inside one NVLink domain (NCCL 2.28; docs/model/nccl.md gives the source of
// each): how many channels its ring search finds over a GPU's NVLinks, how many it runs for a
// call of a given size, and which protocol its tuner picks for a collective or a send/recv.
//
// NCCL picks the protocol its cost model predicts fastest, not the one that is: the time of a
// call is codesim's (collective.cpp), the choice is NCCL's.
#pragma once

#include <span>

#include "sim/comm/collective.hpp"
#include "sim/core/units.hpp"
#include "topologies/topology.hpp"

namespace codesim::comm {

// NCCL's protocols, in hardware::CommCosts::protocols' order.
enum class NcclProtocolId { ll = 0, ll128 = 1, simple = 2 };

// What NCCL's ring search finds for one node: `search` rings of `search_rate` each (after its
// duplication step), over the NVLink bandwidth NCCL credits a GPU with (its per-link constant
// times the links), and the channels it runs (each searched ring twice).
struct NcclChannels {
  int search = 0;
  double search_rate_GBps = 0;
  int runtime = 0;
};

// NCCL's ring channels for this node (its GPU generation's speed list and per-link figure;
// links = the nominal NVLink bandwidth over the generation's nominal per-link rate).
NcclChannels nccl_channels(const topologies::NodeSpec& node);

// The channels NCCL runs for one collective call of `size` bytes: the runtime channels, fewer
// while size < channels x the protocol's threads x its thread threshold.
int nccl_channels_at(const topologies::NodeSpec& node, CollectiveAlgorithm algorithm,
                     NcclProtocolId protocol, int ranks, core::Bytes size);

// NCCL's tuner's estimate for a collective inside one node: the protocol it picks for the
// algorithm and the time it predicts (us) with it. NVLS: Simple, over the NVLS graph its search
// builds (one channel per GPU).
struct NcclEstimate {
  NcclProtocolId protocol = NcclProtocolId::simple;
  double us = 0;
};
NcclEstimate nccl_estimate(const topologies::NodeSpec& node, CollectiveKind kind,
                           CollectiveAlgorithm algorithm, int ranks, core::Bytes size);

// The protocol NCCL's tuner picks for a collective of `size` bytes (as NCCL counts them: the
// larger of the send and receive buffers) among `ranks` GPUs of one node: ring or tree
// all-reduce, ring all-gather and reduce-scatter (hierarchical all-reduce inside one node: as a
// ring; NVLS: Simple, the only one it has).
NcclProtocolId nccl_collective_protocol(const topologies::NodeSpec& node, CollectiveKind kind,
                                        CollectiveAlgorithm algorithm, int ranks, core::Bytes size);

// The algorithm NCCL's tuner picks among `candidates` (not empty) inside one node: the least
// time it predicts (ties: the first).
CollectiveAlgorithm nccl_collective_algorithm(const topologies::NodeSpec& node, CollectiveKind kind,
                                              std::span<const CollectiveAlgorithm> candidates,
                                              int ranks, core::Bytes size);

// Send/recv and all-to-all (grouped point-to-point): LL up to 16 KiB to a peer, Simple above.
NcclProtocolId nccl_p2p_protocol(core::Bytes largest_to_one_peer);

}  // namespace codesim::comm
