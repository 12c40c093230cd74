// A collective over the first N GPUs for each of several sizes, one after another on the SimGrid
// platform, measured as NCCL tests measure it (codesim collective).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/comm/collective.hpp"
#include "topologies/topology.hpp"
#include "topologies/traffic.hpp"

namespace codesim::study {

using comm::collective_algorithm_name;
using comm::collective_kind_name;
using comm::CollectiveAlgorithm;
using comm::CollectiveKind;

struct CollectiveSweepSpec {
  CollectiveKind kind = CollectiveKind::all_reduce;
  // Forced (NCCL_ALGO), or NCCL's choice per size: the fastest candidate alone on the network
  // (engine/algorithm_choice.hpp).
  std::optional<CollectiveAlgorithm> algorithm;
  int gpus = 8;
  std::vector<core::Bytes> sizes;
  topologies::Spread spread = topologies::Spread::even;
};

struct CollectivePoint {
  core::Bytes size;
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::ring;
  std::string protocol;  // NCCL's protocol the first phase took (LL, LL128, Simple)
  core::Seconds time;
  core::BytesPerSecond algorithm_bandwidth;  // size / time
  core::BytesPerSecond bus_bandwidth;        // x NCCL's bus factor
};

struct CollectiveSweep {
  double bus_factor = 1;
  std::vector<CollectivePoint> points;  // per size
  core::Seconds simulation_time;        // wall clock (--bench)
};

// Memory the sweep needs, roughly: the platform (engine::Platform::estimated_memory) and, for an
// all-to-all, the router's bytes per pair of the switches its GPUs' NICs attach to (one term for
// all its flows, topologies::EveryPair), about 110 B a pair, and its hop counts toward each of
// them (2 B per vertex). Checked against the peak memory of 1 GiB all-to-alls on the
// 65,536-endpoint FT3: 928 / 1070 / 1940 MB predicted, 875 / 1005 / 1861 measured over 4096 /
// 16,384 / 65,536 GPUs.
core::Bytes estimated_memory(const topologies::Topology& topology, const CollectiveSweepSpec& spec);

// Throws std::invalid_argument when the collective cannot run on the topology (too few GPUs, an
// algorithm the kind does not have, a hierarchical group that is not whole nodes).
CollectiveSweep simulate_collectives(const topologies::Topology& topology,
                                     const CollectiveSweepSpec& spec);

}  // namespace codesim::study
