// Routing plan from gate output and placement.
#include "models/kernels/routing_plan.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace codesim::kernels {

RoutingPlan make_routing_plan(const GateOutput& g, const Placement& p) {
  RoutingPlan plan;
  plan.tokens = g.tokens;
  plan.topk = g.topk;
  plan.ep = p.ep;
  plan.gpus_per_node = p.gpus_per_node;
  plan.direct = Eigen::MatrixXi::Zero(p.ep, p.ep);
  plan.rdma = Eigen::MatrixXi::Zero(p.ep, p.ep);
  plan.nvlink = Eigen::MatrixXi::Zero(p.ep, p.ep);
  plan.per_expert = Eigen::MatrixXi::Zero(p.ep, p.ep);
  plan.expert_load.assign(p.experts, 0.0);
  plan.gpu_load.assign(p.ep, 0.0);
  plan.source.resize(g.tokens);
  plan.gpus.resize(g.tokens);
  plan.nodes.resize(g.tokens);
  const int per_gpu = std::max(1, (g.tokens + p.ep - 1) / p.ep);
  for (int t = 0; t < g.tokens; ++t) {
    const int s = std::min(t / per_gpu, p.ep - 1);
    plan.source[t] = s;
    auto& gpus = plan.gpus[t];
    for (int k = 0; k < g.topk; ++k) {
      const int e = g.expert(t, k);
      const int d = p.gpu_for(e, t);
      plan.expert_load[e] += 1;
      plan.gpu_load[d] += 1;
      if (d != s) {
        plan.per_expert(s, d) += 1;
      }
      gpus.push_back(d);
    }
    std::sort(gpus.begin(), gpus.end());
    gpus.erase(std::unique(gpus.begin(), gpus.end()), gpus.end());
    auto& nodes = plan.nodes[t];
    for (int d : gpus) {
      nodes.push_back(p.node_of(d));
    }
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    const int source_node = p.node_of(s);
    const int local = s % p.gpus_per_node;
    for (int d : gpus) {
      if (d != s) {
        plan.direct(s, d) += 1;
      }
    }
    for (int n : nodes) {
      const int forwarder = std::min(n * p.gpus_per_node + local, p.ep - 1);
      const int from = n == source_node ? s : forwarder;
      if (n != source_node) {
        plan.rdma(s, forwarder) += 1;
      }
      for (int d : gpus) {
        if (p.node_of(d) == n && d != from) {
          plan.nvlink(from, d) += 1;
        }
      }
    }
  }
  return plan;
}

int RoutingPlan::max_nodes_per_token() const {
  std::size_t most = 0;
  for (const auto& n : nodes) {
    most = std::max(most, n.size());
  }
  return static_cast<int>(most);
}

double RoutingPlan::mean_nodes_per_token() const {
  double total = 0;
  for (const auto& n : nodes) {
    total += static_cast<double>(n.size());
  }
  return tokens > 0 ? total / tokens : 0.0;
}

double RoutingPlan::mean_experts_per_node() const {
  const double pairs = mean_nodes_per_token() * tokens;
  return pairs > 0 ? static_cast<double>(tokens) * topk / pairs : 0.0;
}

std::vector<int> RoutingPlan::received_per_gpu() const {
  std::vector<int> received(ep, 0);
  for (int t = 0; t < tokens; ++t) {
    for (int d : gpus[t]) {
      ++received[d];
    }
  }
  return received;
}

double coefficient_of_variation(const std::vector<double>& load) {
  if (load.empty()) {
    return 0.0;
  }
  const double mean =
      std::accumulate(load.begin(), load.end(), 0.0) / static_cast<double>(load.size());
  double var = 0;
  for (double l : load) {
    var += (l - mean) * (l - mean);
  }
  var /= static_cast<double>(load.size());
  return mean > 0 ? std::sqrt(var) / mean : 0.0;
}

}  // namespace codesim::kernels
