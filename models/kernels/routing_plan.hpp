// What a micro-batch's dispatch moves, from the gate's choices and the placement.
//
// The micro-batch's tokens are spread evenly over the EP group's GPUs (token t starts on GPU
// t / (tokens / ep)). For each token: the GPUs that hold its experts and the nodes of those GPUs.
//
// DeepEP "normal" two-hop dispatch: a token on GPU s (node ns, local index i) goes once over IB
// to GPU (n, i) of every other chosen node n, which forwards it over NVLink to each GPU of node n
// that hosts one of its experts; on its own node s sends over NVLink directly. Direct dispatch
// sends the token from s to every chosen GPU; low-latency dispatch sends it once per expert.
// Counts are tokens (deduplicated per destination, except per_expert); combine moves the same
// counts back.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "models/kernels/gate.hpp"
#include "models/kernels/placement.hpp"

namespace codesim::kernels {

struct RoutingPlan {
  int tokens = 0;
  int topk = 0;
  int ep = 0;
  int gpus_per_node = 8;
  std::vector<int> source;              // per token: its GPU
  std::vector<std::vector<int>> gpus;   // per token: GPUs reached, ascending
  std::vector<std::vector<int>> nodes;  // per token: nodes reached, ascending
  Eigen::MatrixXi direct;               // ep x ep: tokens s sends straight to d (s != d)
  Eigen::MatrixXi rdma;                 // ep x ep: two-hop IB tokens s -> forwarder f
  Eigen::MatrixXi nvlink;               // ep x ep: two-hop NVLink tokens (from s or a forwarder)
  Eigen::MatrixXi per_expert;           // ep x ep: token-expert pairs s sends to d, one message
                                        // per expert (low-latency dispatch; s != d)
  std::vector<double> expert_load;      // token-expert pairs per logical expert
  std::vector<double> gpu_load;         // token-expert pairs per GPU

  int max_nodes_per_token() const;
  double mean_nodes_per_token() const;
  // Experts a token reaches on each node it reaches, averaged over (token, node) pairs:
  // tokens x topk / sum of nodes per token.
  double mean_experts_per_node() const;
  // Tokens each GPU receives (direct dispatch: distinct tokens for which it hosts an expert).
  std::vector<int> received_per_gpu() const;
};

RoutingPlan make_routing_plan(const GateOutput& g, const Placement& p);

// Coefficient of variation (standard deviation / mean) of a load vector.
double coefficient_of_variation(const std::vector<double>& load);

}  // namespace codesim::kernels
