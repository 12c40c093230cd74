// A collective over the first N GPUs for each of several sizes, one after another on the SimGrid
// platform, measured as NCCL tests measure it (codesim collective).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/engine/collective.hpp"
#include "topologies/topology.hpp"
#include "topologies/traffic.hpp"

namespace codesim::study {

using engine::collective_algorithm_name;
using engine::collective_kind_name;
using engine::CollectiveAlgorithm;
using engine::CollectiveKind;

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
// all-to-all, its GPU pairs: each size keeps N (N - 1) flows of 24 bytes (routing sums them per
// pair of switches, which takes little). Checked against peak memory of a 1 GiB all-to-all over
// 4096 GPUs of the 65,536-endpoint FT3: 1296 MB, 890 MB of it the platform, 24 B per pair.
core::Bytes estimated_memory(const topologies::Topology& topology, const CollectiveSweepSpec& spec);

// Throws std::invalid_argument when the collective cannot run on the topology (too few GPUs, an
// algorithm the kind does not have, a hierarchical group that is not whole nodes).
CollectiveSweep simulate_collectives(const topologies::Topology& topology,
                                     const CollectiveSweepSpec& spec);

}  // namespace codesim::study
