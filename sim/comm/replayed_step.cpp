// Timeline + router -> spans, bytes per directed link, links per transfer.
#include "sim/comm/replayed_step.hpp"

#include <map>
#include <numeric>

namespace codesim::comm {

metrics::ReplayedStep replayed_step(const StepTimeline& t, const topologies::TrafficRouter& router,
                                    int ep_gpus) {
  metrics::ReplayedStep out;
  for (const TaskTiming& task : t.tasks) {
    out.tasks.push_back({task.start, task.end});
  }
  out.transfer_of_task = t.transfer_of_task;
  // Bytes per directed link over the step: every task runs its transfer once per repeat.
  const auto& topo = router.topology();
  std::vector<int> runs(t.transfers.size(), 0);
  for (const int i : t.transfer_of_task) {
    if (i >= 0) {
      ++runs[static_cast<std::size_t>(i)];
    }
  }
  topologies::LinkLoads step_loads;
  step_loads.bytes.assign(2 * topo.links().size(), core::Bytes(0));
  out.links_of_transfer.resize(t.transfers.size());
  for (std::size_t i = 0; i < t.transfers.size(); ++i) {
    const auto loads = router.sparse_loads(t.transfers[i].flows, t.transfers[i].every_pair);
    for (const auto& [d, bytes] : loads.links) {
      step_loads.bytes[static_cast<std::size_t>(d)] += bytes * runs[i] * t.transfers[i].repeat;
      out.links_of_transfer[i].push_back(d);
    }
  }
  const topologies::Graph& g = topo.graph();
  std::map<topologies::LinkTier, int> tier_index;
  for (std::size_t d = 0; d < step_loads.bytes.size(); ++d) {
    const int di = static_cast<int>(d);
    const auto [tier, fresh] =
        tier_index.try_emplace(router.tier(di), static_cast<int>(tier_index.size()));
    if (fresh) {
      out.tier_names.push_back(topologies::tier_name(tier->first));
    }
    // Names only where bytes went: a link that carried nothing is never listed by name.
    out.links.push_back({.name = step_loads.bytes[d].value > 0 ? router.describe(di) : "",
                         .tier = tier->second,
                         .ends = {static_cast<int>(g[router.from(di)].kind),
                                  static_cast<int>(g[router.to(di)].kind)},
                         .bandwidth = topo.link(topo.links()[d / 2]).bandwidth,
                         .bytes = step_loads.bytes[d]});
  }
  std::vector<int> group(static_cast<std::size_t>(std::max(0, ep_gpus)));
  std::iota(group.begin(), group.end(), 0);
  core::Bytes sent;
  for (const auto& gpu : sent_per_gpu(router, step_loads, group)) {
    sent += gpu.rdma;
  }
  out.ib_bytes_per_gpu = group.empty() ? core::Bytes(0) : sent / static_cast<double>(group.size());
  return out;
}

}  // namespace codesim::comm
