// The serve: section's fields (`codesim serve`).
#include <cstdint>
#include <string>

#include "sim/config/schema_field.hpp"

namespace codesim::config::schema_fields {
namespace {

// serve.prefill and serve.decode: count, nodes and parallelism, the last three from the scenario's
// own by default.
void add_instance(std::vector<FieldSpec>& f, const std::string& role,
                  ServeInstanceSection ServeSection::*member) {
  const std::string prefix = "serve." + role + ".";
  f.push_back(field(
      prefix + "instances", [member](auto& s) -> auto& { return (s.serve.*member).instances; },
      between(with_default("1", "Number of " + role + " instances."), 1, 100'000)));
  f.push_back(field(
      prefix + "nodes", [member](auto& s) -> auto& { return (s.serve.*member).nodes; },
      between(derived("hardware.nodes", "Nodes of one " + role + " instance."), 1, 100'000)));
  f.back().derive = [](const Scenario& s) { return Value(std::int64_t{s.hardware.nodes}); };
  f.push_back(field(
      prefix + "tp", [member](auto& s) -> auto& { return (s.serve.*member).tp; },
      between(derived("parallelism.tp", "Attention tensor parallelism of a " + role + " instance."),
              1, 1024)));
  f.back().derive = [](const Scenario& s) { return Value(std::int64_t{s.parallelism.tp}); };
  f.push_back(field(
      prefix + "ep", [member](auto& s) -> auto& { return (s.serve.*member).ep; },
      between(derived("parallelism.ep", "Expert parallelism of a " + role +
                                            " instance (its GPUs "
                                            "sharing a layer's experts)."),
              1, 1'000'000)));
  f.back().derive = [](const Scenario& s) { return Value(std::int64_t{s.parallelism.ep}); };
  f.push_back(field(
      prefix + "pp", [member](auto& s) -> auto& { return (s.serve.*member).pp; },
      between(derived("parallelism.pp", "Pipeline stages of a " + role +
                                            " instance (a request's "
                                            "tokens pass each in turn)."),
              1, 1024)));
  f.back().derive = [](const Scenario& s) { return Value(std::int64_t{s.parallelism.pp}); };
}

}  // namespace

void add_serve_fields(std::vector<FieldSpec>& f) {
  add_instance(f, "prefill", &ServeSection::prefill);
  add_instance(f, "decode", &ServeSection::decode);
  f.push_back(field("serve.prefill.chunk_tokens_per_gpu", MEMBER(serve.chunk_tokens_per_gpu),
                    between(derived("inference.prompt_tokens_per_gpu",
                                    "Chunked prefill: new prompt tokens each prefill GPU computes "
                                    "per step, a long prompt over several steps."),
                            1, 100'000'000)));
  f.back().derive = [](const Scenario& s) {
    return Value(std::int64_t{s.inference.prompt_tokens_per_gpu});
  };
  f.push_back(field("serve.decode.max_requests_per_gpu", MEMBER(serve.max_requests_per_gpu),
                    between(derived("inference.requests_per_gpu",
                                    "Continuous batching: requests each decode GPU holds in its "
                                    "batch at most."),
                            1, 1'000'000)));
  f.back().derive = [](const Scenario& s) {
    return Value(std::int64_t{s.inference.requests_per_gpu});
  };
  f.push_back(field("serve.decode.kv_memory_fraction", MEMBER(serve.kv_memory_fraction),
                    between(with_default("0.9",
                                         "Share of a decode GPU's HBM left after its weights, "
                                         "its largest batch's activations and the framework "
                                         "that holds KV cache (the rest: the allocator's "
                                         "fragmentation, workspace)."),
                            0.01, 1)));
  f.push_back(field("serve.arrivals.rate", MEMBER(serve.rate),
                    positive(with_default("1", "Poisson arrivals: requests per second."))));
  f.push_back(
      field("serve.arrivals.requests", MEMBER(serve.requests),
            between(with_default("1000", "Poisson arrivals: requests in all."), 1, 10'000'000)));
  f.push_back(field("serve.arrivals.prompt_tokens", MEMBER(serve.prompt_tokens),
                    between(with_default("2048", "Poisson arrivals: prompt tokens per request."), 1,
                            10'000'000)));
  f.push_back(field("serve.arrivals.cached_tokens", MEMBER(serve.cached_tokens),
                    between(with_default("0",
                                         "Poisson arrivals: prompt tokens found in the prefix "
                                         "cache (not computed again)."),
                            0, 10'000'000)));
  f.push_back(field("serve.arrivals.output_tokens", MEMBER(serve.output_tokens),
                    between(with_default("256", "Poisson arrivals: tokens each request generates."),
                            1, 10'000'000)));
  f.push_back(field(
      "serve.arrivals.seed", MEMBER(serve.seed),
      between(with_default("1", "Poisson arrivals: the generator's seed."), 0, 2'000'000'000)));
  {
    FieldSpec trace = field(
        "serve.arrivals.trace", MEMBER(serve.trace),
        optional_field("Request trace CSV (timestamp_s,prompt_tokens,cached_tokens,"
                       "output_tokens), relative to this file; replaces the Poisson arrivals."));
    trace.type = FieldType::path;
    f.push_back(std::move(trace));
  }
  f.push_back(field("serve.slo.ttft", MEMBER(serve.slo_ttft),
                    at_least(with_default("0s", "Time-to-first-token target; 0: none."), 0)));
  f.push_back(field("serve.slo.tpot", MEMBER(serve.slo_tpot),
                    at_least(with_default("0s", "Time-per-output-token target; 0: none."), 0)));
  f.push_back(field("serve.slo.attainment", MEMBER(serve.slo_attainment),
                    between(with_default("0.9",
                                         "Share of requests that must meet both targets for the "
                                         "SLO to count as met."),
                            0.01, 1)));
}

}  // namespace codesim::config::schema_fields
