// One micro-batch routed end to end: synthetic gate and tokens, optional bias balancing, the
// gate, the expert placement and the routing plan. What `codesim kernels routing`, `codesim a2a`
// and step synthesis all need, from one seed.
#pragma once

#include <cstdint>

#include "models/kernels/balancing.hpp"
#include "models/kernels/gate.hpp"
#include "models/kernels/placement.hpp"
#include "models/kernels/routing_plan.hpp"
#include "models/kernels/synthetic.hpp"
#include "sim/core/note.hpp"

namespace codesim::kernels {

struct BatchRoutingSpec {
  GateSpec gate;
  int hidden = 7168;
  int tokens = 4096;  // over the whole EP group
  int ep = 64;
  int gpus_per_node = 8;
  SkewSpec skew;          // skew.expert_groups is taken from the gate
  int balance_steps = 0;  // 0: route with no bias
  int balance_tokens = 1024;
  float gamma = 0.001f;
  int redundant = 0;  // EPLB replicas; 0: contiguous placement
  EplbPolicy eplb = EplbPolicy::global;
  std::uint64_t seed = 1;
};

struct RoutedBatch {
  GateOutput unbalanced;  // the gate with no bias (route_batches: the first batch only)
  GateOutput routed;      // the gate as used (with the balanced bias when balance_steps > 0)
  Placement placement;
  RoutingPlan plan;
};

// Throws std::invalid_argument when ep does not divide the experts (contiguous placement) or the
// EPLB constraints fail.
RoutedBatch route_batch(const BatchRoutingSpec& s);

// `count` micro-batches routed by the same gate and balanced bias (balanced once), each with its
// own tokens (seeds s.seed + 1, s.seed + 3, ...): the routing of different layers or
// micro-batches of one step. The first equals route_batch(s).
std::vector<RoutedBatch> route_batches(const BatchRoutingSpec& s, int count);

// What routed `count` batches: the reference gate on synthetic tokens and weights.
core::Note routing_note(const BatchRoutingSpec& s, int count);

}  // namespace codesim::kernels
