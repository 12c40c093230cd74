// Every replica's step at its drawn pace; the slowest member of each group sets its start.
#include "sim/variability/replica_replay.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

namespace codesim::variability {

int unit_count(const ReplicaProgram& p) {
  return p.shape.gpus_per_rank() / p.unit_gpus;
}

std::vector<int> choose_units(const ReplicaProgram& p, const StepDraw& d, int wanted) {
  const int units = unit_count(p);
  std::vector<int> all(static_cast<std::size_t>(units));
  std::iota(all.begin(), all.end(), 0);
  if (wanted <= 0 || wanted >= units) {
    return all;
  }
  const int g_rank = p.shape.gpus_per_rank();
  std::vector<double> severity(static_cast<std::size_t>(units), 0.0);
  for (int r = 0; r < p.shape.pp; ++r) {
    for (int u = 0; u < units; ++u) {
      double compute = 0;
      double network = 0;
      for (int b = 0; b < p.unit_gpus; ++b) {
        const auto gpu = static_cast<std::size_t>(r * g_rank + u * p.unit_gpus + b);
        compute = std::max(compute, d.compute[gpu] * d.mean_pace[gpu]);
        network = std::max(network, d.network[gpu]);
      }
      severity[static_cast<std::size_t>(u)] += compute + network;
    }
  }
  std::partial_sort(all.begin(), all.begin() + wanted, all.end(), [&](int a, int b) {
    const double sa = severity[static_cast<std::size_t>(a)];
    const double sb = severity[static_cast<std::size_t>(b)];
    return sa != sb ? sa > sb : a < b;
  });
  all.resize(static_cast<std::size_t>(wanted));
  std::sort(all.begin(), all.end());
  return all;
}

double replay_step(const ReplicaProgram& p, const StepDraw& d, const std::vector<int>& units,
                   ReplayScratch& scratch, std::vector<metrics::TaskSpan>* first) {
  const int g_rank = p.shape.gpus_per_rank();
  std::vector<int> js;  // the replayed GPU indices within a rank
  for (const int u : units) {
    for (int b = 0; b < p.unit_gpus; ++b) {
      js.push_back(u * p.unit_gpus + b);
    }
  }
  const std::size_t k_count = js.size();
  std::vector<std::vector<int>> keys(p.group_key.size());
  for (std::size_t g = 0; g < keys.size(); ++g) {
    for (const int j : js) {
      keys[g].push_back(p.group_key[g][static_cast<std::size_t>(j)]);
    }
  }
  auto& end = scratch.end;
  end.assign(p.tasks.size() * k_count, 0.0);
  double step = 0;
  if (first != nullptr) {
    first->assign(p.tasks.size(), metrics::TaskSpan{});
  }
  for (const int t : p.order) {
    const ReplicaTask& task = p.tasks[static_cast<std::size_t>(t)];
    double* e = end.data() + static_cast<std::size_t>(t) * k_count;
    for (int i = p.pred_begin[static_cast<std::size_t>(t)];
         i < p.pred_begin[static_cast<std::size_t>(t) + 1]; ++i) {
      const double* pe =
          end.data() + static_cast<std::size_t>(p.preds[static_cast<std::size_t>(i)]) * k_count;
      for (std::size_t k = 0; k < k_count; ++k) {
        e[k] = std::max(e[k], pe[k]);
      }
    }
    const auto base = static_cast<std::size_t>(task.rank * g_rank);
    double first_start = e[0];  // an own task starts when its predecessors have ended
    if (task.group == Group::own) {
      const auto peer = static_cast<std::size_t>(std::max(0, task.peer_rank) * g_rank);
      for (std::size_t k = 0; k < k_count; ++k) {
        const auto j = static_cast<std::size_t>(js[k]);
        double nic = 1;
        if (task.crosses_nodes) {
          nic = d.network[base + j];
          if (task.peer_rank >= 0) {
            nic = std::max(nic, d.network[peer + j]);
          }
        }
        const double pace =
            task.compute ? d.compute[base + j] * d.pace_over(base + j, e[k], task.own) : 1.0;
        e[k] += task.own * pace + task.network * nic;
      }
    } else {
      const auto g = static_cast<std::size_t>(task.group);
      const auto& key = keys[g];
      auto& ready = scratch.group_ready;
      auto& nic = scratch.group_nic;
      ready.assign(static_cast<std::size_t>(p.group_count[g]),
                   -std::numeric_limits<double>::infinity());
      nic.assign(ready.size(), 1.0);
      for (std::size_t k = 0; k < k_count; ++k) {
        const auto key_k = static_cast<std::size_t>(key[k]);
        ready[key_k] = std::max(ready[key_k], e[k]);
        if (task.crosses_nodes) {
          nic[key_k] = std::max(nic[key_k], d.network[base + static_cast<std::size_t>(js[k])]);
        }
      }
      first_start = ready[static_cast<std::size_t>(key[0])];  // a group's when its last is ready
      for (std::size_t k = 0; k < k_count; ++k) {
        const auto key_k = static_cast<std::size_t>(key[k]);
        e[k] = ready[key_k] + task.own + task.network * nic[key_k];
      }
    }
    if (first != nullptr) {
      (*first)[static_cast<std::size_t>(t)] = {core::Seconds(first_start), core::Seconds(e[0])};
    }
    for (std::size_t k = 0; k < k_count; ++k) {
      step = std::max(step, e[k]);
    }
  }
  return step;
}

}  // namespace codesim::variability
