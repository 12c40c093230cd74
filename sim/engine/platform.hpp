// A Topology as a SimGrid platform, and the runs of transfers on it. The only SimGrid user.
//
//   every topology vertex (GPU, NVSwitch, NIC, switch) -> a SimGrid host
//   every link                                          -> a split-duplex link, its bandwidth
//   one route per pair of adjacent vertices, each way   -> that link, in that direction
//                                                          (AdjacentZone: memory per link, not
//                                                          per pair of vertices)
//
// A transfer's flows are routed by topologies::TrafficRouter into bytes per directed link; the
// transfer then runs as one parallel task (host model ptask_L07) whose bytes matrix has, for each
// directed link u -> v, its bytes between the hosts of u and v. So SimGrid sees each link's total
// load once instead of every GPU pair's route (a 2048-GPU all-to-all is 4M pairs but about 20k
// links), and it shares each link among the transfers crossing it.
//
// Transfers alone on their links do not enter SimGrid's solver: while none of a transfer's links
// (and copying GPUs) is used by another, it waits its time alone; when one that shares them
// begins, it is woken and moves the rest of its bytes as a parallel task. Same results, a small
// share of the solver's work (Platform::Impl::transfer).
//
// Latency: the SimGrid links carry none. A parallel task in ptask_L07 waits for the largest
// latency among its routes, here a single link; the engine instead waits for the transfer's own
// longest path latency (TrafficRouter) before the task starts, which is the same rule over whole
// paths. Bandwidth sharing never depends on latency (unlike CM02, see sim/engine/README.md).
//
// Parallel links between two vertices (Dragonfly) become one SimGrid link with the sum of their
// bandwidths. SimGrid allows one engine per process: a second Platform throws.
#pragma once

#include <memory>
#include <vector>

#include "sim/comm/transfer.hpp"
#include "topologies/topology.hpp"
#include "topologies/traffic.hpp"

namespace codesim::engine {

class Platform {
 public:
  Platform(const topologies::Topology& topology, topologies::Spread spread);
  ~Platform();
  Platform(const Platform&) = delete;
  Platform& operator=(const Platform&) = delete;

  // Memory the platform of `t` takes with its topology and router, roughly: linear in vertices
  // and links (fitted to measured peak memory, platform.cpp). For refusing a run up front.
  static core::Bytes estimated_memory(const topologies::Topology& t);

  const topologies::Topology& topology() const;
  const topologies::TrafficRouter& router() const;

  // Runs the transfers (each starts when `not_before` has come and the ones it comes `after`
  // have ended) and returns their timings, in the order given. Throws core::SimulationError for
  // a dependency cycle or an index out of range, before anything runs.
  std::vector<comm::TransferTiming> run(const std::vector<comm::Transfer>& transfers);

  // Runs a program of streams, one SimGrid actor per stream. Throws core::SimulationError, before
  // anything runs, for an index out of range or a program that cannot finish (a cycle through
  // dependencies and stream orders).
  std::vector<comm::TaskTiming> run_streams(const comm::StreamProgram& program);

  // How the transfers run so far moved their bytes (--bench): solo (nothing shared their links,
  // so they waited their time alone), solo until another began on their links, or in SimGrid's
  // solver from the start.
  struct Counts {
    long long solo = 0;
    long long interrupted = 0;
    long long solved = 0;
    // Link and GPU bounds of the transfers run, and those handed to SimGrid: the others are
    // multiples of a kept one, which binds first.
    long long bounds = 0;
    long long bounds_kept = 0;
  };
  Counts counts() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace codesim::engine
