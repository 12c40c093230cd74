// A request-level serving run as a scenario's serve: section gives it: prefill and decode
// instances, their batches, the arrivals and the SLO. parameters.hpp declares each key with its
// doc and default; an instance's shape and its batches default to the scenario's own step
// (hardware.nodes, parallelism.*, inference.*), filled in when the scenario is decoded.
#pragma once

#include <string>

#include "sim/core/units.hpp"
#include "sim/serve/arrivals.hpp"

namespace codesim::serve {

// One kind of instance (serve.prefill, serve.decode): how many, and each one's nodes of
// hardware.gpus_per_node and parallelism.
struct InstanceShape {
  int instances = 1;
  int nodes = 0;  // derived: hardware.nodes
  int tp = 0;     // derived: parallelism.tp
  int ep = 0;     // derived: parallelism.ep
  int pp = 0;     // derived: parallelism.pp
};

struct Slo {
  core::Seconds ttft;       // time to first token; 0: none
  core::Seconds tpot;       // time per output token; 0: none
  double attainment = 0.9;  // share of requests that must meet both
};

struct ServeSpec {
  InstanceShape prefill;
  InstanceShape decode;
  int chunk_tokens_per_gpu = 0;     // derived: new prompt tokens each prefill GPU computes a step
  int max_requests_per_gpu = 0;     // derived: requests each decode GPU batches at most
  double kv_memory_fraction = 0.9;  // of a decode GPU's HBM left after its weights, activations
                                    // and the framework, for KV cache
  PoissonArrivals arrivals;
  std::string trace;  // a request trace file instead of the Poisson arrivals
  Slo slo;
};

}  // namespace codesim::serve
