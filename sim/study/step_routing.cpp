// The step's routing plans from the reference gate, cached across a sweep's points.
#include "sim/study/step_routing.hpp"

#include <algorithm>
#include <string>

#include "sim/study/scenario_inputs.hpp"

namespace codesim::study {
namespace {

using config::Scenario;

// Rows each expert of the busiest GPU takes per micro-batch: in each routing plan the GPU with
// the most token-expert pairs, its experts' pairs (a replicated expert's split among its copies)
// scaled from the plan's sample to the micro-batch, largest first; averaged over the plans.
std::vector<double> busiest_expert_rows(const std::vector<kernels::RoutedBatch>& batches,
                                        double scale) {
  std::vector<double> mean;
  for (const auto& b : batches) {
    const auto& load = b.plan.gpu_load;
    const int gpu = static_cast<int>(std::max_element(load.begin(), load.end()) - load.begin());
    std::vector<double> rows;
    for (std::size_t e = 0; e < b.placement.replicas.size(); ++e) {
      const auto& copies = b.placement.replicas[e];
      const auto n = static_cast<double>(std::count(copies.begin(), copies.end(), gpu));
      if (n > 0) {
        rows.push_back(b.plan.expert_load[e] * n / static_cast<double>(copies.size()) * scale);
      }
    }
    std::sort(rows.rbegin(), rows.rend());
    mean.resize(std::max(mean.size(), rows.size()), 0.0);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      mean[i] += rows[i] / static_cast<double>(batches.size());
    }
  }
  return mean;
}

// The routing plans of `spec` (s.routing.plans batches), from the cache when it has them.
std::vector<kernels::RoutedBatch> routed(const kernels::BatchRoutingSpec& spec, const Scenario& s,
                                         RoutingCache* cache) {
  if (cache == nullptr) {
    return kernels::route_batches(spec, s.routing.plans);
  }
  const auto& g = spec.gate;
  const std::string key = std::to_string(g.experts) + "|" + std::to_string(g.groups) + "|" +
                          std::to_string(g.topk_groups) + "|" + std::to_string(g.topk) + "|" +
                          std::to_string(g.route_scale) + "|" +
                          std::to_string(static_cast<int>(g.score)) + "|" +
                          std::to_string(spec.hidden) + "|" + std::to_string(spec.tokens) + "|" +
                          std::to_string(spec.ep) + "|" + std::to_string(spec.gpus_per_node) + "|" +
                          std::to_string(spec.skew.zipf) + "|" + std::to_string(spec.skew.topics) +
                          "|" + std::to_string(spec.balance_steps) + "|" +
                          std::to_string(spec.seed) + "|" + std::to_string(s.routing.plans);
  auto it = cache->batches.find(key);
  if (it == cache->batches.end()) {
    std::vector<kernels::RoutedBatch> batches = kernels::route_batches(spec, s.routing.plans);
    for (auto& b : batches) {
      b.unbalanced = {};  // the gates' scores: hundreds of MB, and a step needs only the plans
      b.routed = {};
    }
    it = cache->batches.emplace(key, std::move(batches)).first;
  }
  return it->second;
}

}  // namespace

Routing route_step(const Scenario& s, const workload::StepShape& shape, RoutingCache* cache) {
  Routing out;
  if (shape.ep <= 1) {
    return out;
  }
  const auto spec = routing_spec(s, s.routing.sample_tokens * shape.ep, shape.ep, 0);
  const std::vector<kernels::RoutedBatch> batches = routed(spec, s, cache);
  out.busiest_rows = busiest_expert_rows(
      batches, static_cast<double>(shape.tokens_per_gpu()) / s.routing.sample_tokens);
  for (const auto& batch : batches) {
    out.plans.push_back(batch.plan);
  }
  out.notes.push_back(kernels::routing_note(spec, s.routing.plans));
  return out;
}

}  // namespace codesim::study
