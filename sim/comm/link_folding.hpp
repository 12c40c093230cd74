// What both tiers see of the network: parallel links between two vertices folded into one of
// their summed bandwidth (each direction), and a transfer's bytes on those folded links, its
// senders' copy work and its time alone. Platform builds its SimGrid links from the fold; the
// fast tier (analytic_streams) times transfers by the same loads.
#pragma once

#include <utility>
#include <vector>

#include "sim/comm/transfer.hpp"
#include "topologies/traffic.hpp"

namespace codesim::comm {

// Folded links in pairs: 2k runs from ends[2k].first to ends[2k].second, 2k + 1 back; pairs in
// order of their (lower, higher) vertex.
struct FoldedLinks {
  std::vector<int> of_directed;           // per topology directed link: its folded link
  std::vector<std::pair<int, int>> ends;  // per folded link: (from, to) vertices
  std::vector<double> bandwidth;          // per folded link, bytes/s
  std::vector<int> representative;        // per folded link: a topology directed link in it
};

FoldedLinks fold_links(const topologies::TrafficRouter& router);

struct FoldedLoads {
  std::vector<std::pair<int, double>> loads;  // (folded link, bytes), nonzero only
  std::vector<std::pair<int, double>> copy;   // (GPU, seconds of copy at the sender cap)
  double latency = 0;                         // the longest path latency of its flows
  double wait = 0;  // before the bytes move: fixed cost + latency x its latency steps
  // Alone on the network: the most loaded link's bytes over its bandwidth, or the slowest
  // sender's copy if longer (per repeat), and which topology directed link bounds it (-1: the
  // SMs, or nothing moves).
  double alone = 0;
  int bottleneck = -1;
  int call = -1;  // the transfer's call used (Transfer::calls), -1: none
};

// A transfer's sender cap applies only when it moves bytes over some link; its links carry its
// bytes / (efficiency x its call's efficiency), the call being the one with the least fixed cost
// + time alone.
FoldedLoads fold_loads(const Transfer& t, const topologies::TrafficRouter& router,
                       const FoldedLinks& links);

// A transfer's time alone: its wait (fixed cost and latencies) + repeat x its bottleneck's time,
// as the full tier gives a transfer that shares nothing.
double seconds_alone(const Transfer& t, const topologies::TrafficRouter& router,
                     const FoldedLinks& links);

}  // namespace codesim::comm
