// One collective per size, each after the previous, so that they never overlap.
#include "sim/study/collectives.hpp"

#include <algorithm>
#include <chrono>
#include <set>
#include <stdexcept>

#include "sim/core/stopwatch.hpp"
#include "sim/comm/algorithm_choice.hpp"
#include "sim/engine/platform.hpp"

namespace codesim::study {

core::Bytes estimated_memory(const topologies::Topology& topology,
                             const CollectiveSweepSpec& spec) {
  constexpr double kPerEndPair = 110;  // a segment in the router's map and again sorted
  constexpr double kPerDistance = 2;   // a 16-bit hop count, per vertex per destination switch
  double ends = 0;
  if (spec.kind == CollectiveKind::all_to_all && topology.has_nics()) {
    std::set<topologies::VertexId> switches;  // where the router sums the GPUs' bytes
    const auto& g = topology.graph();
    for (int gpu = 0; gpu < std::min(spec.gpus, topology.gpus()); ++gpu) {
      const auto link = topologies::only_switch_link(topology, topology.nic(gpu));
      switches.insert(link ? boost::target(*link, g) : topology.nic(gpu));
    }
    ends = static_cast<double>(switches.size());
  }
  const auto vertices = static_cast<double>(topology.vertex_count());
  return engine::Platform::estimated_memory(topology) +
         core::Bytes(kPerEndPair * ends * ends + kPerDistance * vertices * ends);
}

CollectiveSweep simulate_collectives(const topologies::Topology& topology,
                                     const CollectiveSweepSpec& spec) {
  if (topology.gpus() < spec.gpus) {
    throw std::invalid_argument("the topology has " + std::to_string(topology.gpus()) +
                                " GPUs, fewer than the collective's " + std::to_string(spec.gpus));
  }
  const std::vector<int> gpus = topologies::first_gpus(spec.gpus);
  const auto start = std::chrono::steady_clock::now();
  engine::Platform platform(topology, spec.spread);
  const comm::FoldedLinks links = comm::fold_links(platform.router());
  std::vector<comm::Transfer> transfers;
  std::vector<std::pair<int, int>> span;  // first and last transfer of each size
  std::vector<CollectiveAlgorithm> chosen;
  for (const auto size : spec.sizes) {
    comm::CollectiveSpec c{.kind = spec.kind, .gpus = gpus, .size = size};
    c.algorithm = spec.algorithm ? *spec.algorithm
                                 : comm::fastest_algorithm(c, platform.router(), links);
    chosen.push_back(c.algorithm);
    auto phases =
        comm::collective_transfers(c, topology, static_cast<int>(transfers.size()));
    if (!transfers.empty()) {
      phases.front().after = {static_cast<int>(transfers.size()) - 1};
    }
    span.emplace_back(static_cast<int>(transfers.size()),
                      static_cast<int>(transfers.size() + phases.size()) - 1);
    transfers.insert(transfers.end(), std::make_move_iterator(phases.begin()),
                     std::make_move_iterator(phases.end()));
  }
  const auto timings = platform.run(transfers);
  CollectiveSweep out;
  out.simulation_time = core::Seconds(core::seconds_since(start));
  out.bus_factor = comm::bus_factor(spec.kind, spec.gpus);
  for (std::size_t i = 0; i < spec.sizes.size(); ++i) {
    const auto& [first, last] = span[i];
    const core::Seconds time = timings[static_cast<std::size_t>(last)].end -
                               timings[static_cast<std::size_t>(first)].start;
    const core::BytesPerSecond algbw(spec.sizes[i].value / time.value);
    out.points.push_back(
        {spec.sizes[i], chosen[i],
         std::string(comm::nccl_protocol_name(timings[static_cast<std::size_t>(first)].call)),
         time, algbw, algbw * out.bus_factor});
  }
  return out;
}

}  // namespace codesim::study
