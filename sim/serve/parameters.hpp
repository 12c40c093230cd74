// The serve: section's keys, declared beside the spec they fill (core/parameter.hpp): each key's
// doc, default and range. An instance's shape and batches default to the scenario's own step's
// keys (same_as); the others' defaults are ServeSpec's own.
#pragma once

#include <string>

#include "sim/core/parameter.hpp"
#include "sim/serve/serve_spec.hpp"

namespace codesim::serve {

// serve.prefill and serve.decode: count, nodes and parallelism, the last four from the scenario's
// own by default.
template <class Declare, class Access>
void declare_instance(Declare& declare, const std::string& role, Access shape) {
  using namespace core;
  const auto member = [shape](auto pick) {
    return [ shape, pick ](auto& s) -> auto& {
      return pick(shape(s));
    };
  };
  declare(role + ".instances", member(MEMBER(instances)),
          between(with_default("1", "Number of " + role + " instances."), 1, 100'000));
  declare(role + ".nodes", member(MEMBER(nodes)),
          between(same_as("hardware.nodes", "Nodes of one " + role + " instance."), 1, 100'000));
  declare(
      role + ".tp", member(MEMBER(tp)),
      between(same_as("parallelism.tp", "Attention tensor parallelism of a " + role + " instance."),
              1, 1024));
  declare(role + ".ep", member(MEMBER(ep)),
          between(same_as("parallelism.ep", "Expert parallelism of a " + role +
                                                " instance (its GPUs sharing a layer's experts)."),
                  1, 1'000'000));
  declare(
      role + ".pp", member(MEMBER(pp)),
      between(same_as("parallelism.pp", "Pipeline stages of a " + role +
                                            " instance (a request's tokens pass each in turn)."),
              1, 1024));
}

// Calls declare(key, accessor, info) for every key of ServeSpec, in the schema's order.
template <class Declare>
void declare_parameters(Declare&& declare) {
  using namespace core;
  declare_instance(declare, "prefill", MEMBER(prefill));
  declare_instance(declare, "decode", MEMBER(decode));
  declare("prefill.chunk_tokens_per_gpu", MEMBER(chunk_tokens_per_gpu),
          between(same_as("inference.prompt_tokens_per_gpu",
                          "Chunked prefill: new prompt tokens each prefill GPU computes per step, "
                          "a long prompt over several steps."),
                  1, 100'000'000));
  declare("decode.max_requests_per_gpu", MEMBER(max_requests_per_gpu),
          between(same_as("inference.requests_per_gpu",
                          "Continuous batching: requests each decode GPU holds in its batch at "
                          "most."),
                  1, 1'000'000));
  declare("decode.kv_memory_fraction", MEMBER(kv_memory_fraction),
          between(with_default("0.9",
                               "Share of a decode GPU's HBM left after its weights, its largest "
                               "batch's activations and the framework that holds KV cache (the "
                               "rest: the allocator's fragmentation, workspace)."),
                  0.01, 1));
  declare("arrivals.rate", MEMBER(arrivals.rate),
          positive(with_default("1", "Poisson arrivals: requests per second.")));
  declare("arrivals.requests", MEMBER(arrivals.requests),
          between(with_default("1000", "Poisson arrivals: requests in all."), 1, 10'000'000));
  declare(
      "arrivals.prompt_tokens", MEMBER(arrivals.prompt_tokens),
      between(with_default("2048", "Poisson arrivals: prompt tokens per request."), 1, 10'000'000));
  declare("arrivals.cached_tokens", MEMBER(arrivals.cached_tokens),
          between(with_default("0",
                               "Poisson arrivals: prompt tokens found in the prefix cache (not "
                               "computed again)."),
                  0, 10'000'000));
  declare("arrivals.output_tokens", MEMBER(arrivals.output_tokens),
          between(with_default("256", "Poisson arrivals: tokens each request generates."), 1,
                  10'000'000));
  declare("arrivals.seed", MEMBER(arrivals.seed),
          between(with_default("1", "Poisson arrivals: the generator's seed."), 0, 2'000'000'000));
  declare("arrivals.trace", MEMBER(trace),
          file_path(optional_field("Request trace CSV (timestamp_s,prompt_tokens,cached_tokens,"
                                   "output_tokens), relative to this file; replaces the Poisson "
                                   "arrivals.")));
  declare("slo.ttft", MEMBER(slo.ttft),
          at_least(with_default("0s", "Time-to-first-token target; 0: none."), 0));
  declare("slo.tpot", MEMBER(slo.tpot),
          at_least(with_default("0s", "Time-per-output-token target; 0: none."), 0));
  declare("slo.attainment", MEMBER(slo.attainment),
          between(with_default("0.9",
                               "Share of requests that must meet both targets for the SLO to "
                               "count as met."),
                  0.01, 1));
}

}  // namespace codesim::serve
