// Critical path of a stream program, transfers timed alone by their bottleneck.
#include "sim/engine/analytic_streams.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "sim/engine/stream_check.hpp"

namespace codesim::engine {
namespace {

// Directed links folded per (from, to) vertex pair, as the platform folds parallel links: each
// topology directed link's index in the folded list, and the folded links' bandwidths.
struct FoldedLinks {
  std::vector<int> of_directed;
  std::vector<double> bandwidth;
};

FoldedLinks fold(const topologies::TrafficRouter& router) {
  const topologies::Topology& t = router.topology();
  FoldedLinks f;
  f.of_directed.assign(2 * t.links().size(), -1);
  std::map<std::pair<int, int>, int> index;
  for (std::size_t id = 0; id < t.links().size(); ++id) {
    const double bandwidth = t.graph()[t.links()[id]].bandwidth.value;
    for (const bool reverse : {false, true}) {
      const int d = topologies::directed(static_cast<int>(id), reverse);
      const std::pair<int, int> ends{static_cast<int>(router.from(d)),
                                     static_cast<int>(router.to(d))};
      const auto [it, fresh] = index.emplace(ends, static_cast<int>(f.bandwidth.size()));
      if (fresh) {
        f.bandwidth.push_back(0);
      }
      f.bandwidth[static_cast<std::size_t>(it->second)] += bandwidth;
      f.of_directed[static_cast<std::size_t>(d)] = it->second;
    }
  }
  return f;
}

double seconds_alone(const Transfer& t, const topologies::TrafficRouter& router,
                     const FoldedLinks& links) {
  const topologies::LinkLoads loads = router.loads(t.flows);
  std::map<int, double> folded;
  for (std::size_t d = 0; d < loads.bytes.size(); ++d) {
    if (loads.bytes[d].value > 0) {
      folded[links.of_directed[d]] += loads.bytes[d].value;
    }
  }
  double busiest = 0;
  for (const auto& [link, bytes] : folded) {
    busiest = std::max(busiest, bytes / links.bandwidth[static_cast<std::size_t>(link)]);
  }
  if (t.sender_cap && !folded.empty()) {
    std::map<int, double> sent;
    for (const auto& f : t.flows) {
      if (f.src != f.dst) {
        sent[f.src] += f.bytes.value;
      }
    }
    for (const auto& [gpu, bytes] : sent) {
      busiest = std::max(busiest, bytes / t.sender_cap->value);
    }
  }
  return t.repeat * (loads.latency.value + busiest);
}

}  // namespace

std::vector<TaskTiming> run_streams_analytic(const StreamProgram& program,
                                             const topologies::TrafficRouter& router) {
  check_stream_program(program);
  const FoldedLinks links = fold(router);
  std::vector<double> transfer(program.transfers.size());
  for (std::size_t i = 0; i < transfer.size(); ++i) {
    transfer[i] = seconds_alone(program.transfers[i], router, links);
  }
  std::vector<int> previous(program.tasks.size(), -1);  // on the same stream
  for (const auto& stream : program.streams) {
    for (std::size_t i = 1; i < stream.size(); ++i) {
      previous[static_cast<std::size_t>(stream[i])] = stream[i - 1];
    }
  }
  std::vector<TaskTiming> out(program.tasks.size());
  for (const int id : stream_program_order(program)) {
    const auto i = static_cast<std::size_t>(id);
    const StreamTask& task = program.tasks[i];
    double start = previous[i] >= 0 ? out[static_cast<std::size_t>(previous[i])].end.value : 0;
    for (const int d : task.deps) {
      start = std::max(start, out[static_cast<std::size_t>(d)].end.value);
    }
    double end = start + task.duration.value;
    if (task.transfer >= 0) {
      end += transfer[static_cast<std::size_t>(task.transfer)];
    }
    out[i] = {core::Seconds(start), core::Seconds(end)};
  }
  return out;
}

}  // namespace codesim::engine
