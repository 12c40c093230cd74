// The scenario fields of what runs: parallelism, schedule, workload, routing and software, which
// sim/workload declares beside its specs (workload/parameters.hpp), and inference, config's own.
#include "sim/config/schema_field.hpp"
#include "sim/workload/parameters.hpp"

namespace codesim::config::schema_fields {

void add_run_fields(std::vector<FieldSpec>& f) {
  // --- parallelism
  add_declared(f, "parallelism.", MEMBER(parallelism),
               [](auto&& declare) { workload::declare_parallelism_parameters(declare); });

  // --- schedule
  add_declared(f, "schedule.", MEMBER(schedule),
               [](auto&& declare) { workload::declare_schedule_parameters(declare); });

  // --- workload
  add_declared(f, "workload.", MEMBER(workload),
               [](auto&& declare) { workload::declare_workload_parameters(declare); });

  // --- routing
  add_declared(f, "routing.", MEMBER(routing),
               [](auto&& declare) { workload::declare_routing_parameters(declare); });

  // --- inference
  f.push_back(field("inference.mode", MEMBER(inference.mode),
                    with_default("model",
                                 "model: the simulator's full model (compute, latencies, overlap); "
                                 "bound: DeepSeek's ISCA 2.3.2 upper bound, communication only.")));
  f.push_back(field("inference.micro_batches", MEMBER(inference.micro_batches),
                    between(derived("2 for an MoE model with ep > 1, else 1",
                                    "Micro-batches overlapped in a prefill or decode step (one's "
                                    "attention under the other's dispatch, MoE and combine)."),
                            1, 16)));
  f.back().derive = [](const Scenario& s) {
    return Value(std::int64_t{s.expert_parallel() ? 2 : 1});
  };
  f.push_back(field("inference.prompt_tokens_per_gpu", MEMBER(inference.prompt_tokens_per_gpu),
                    between(with_default("16384",
                                         "Prefill: prompt tokens each GPU computes per "
                                         "step, over all its micro-batches."),
                            1, 100'000'000)));
  f.push_back(field("inference.requests_per_gpu", MEMBER(inference.requests_per_gpu),
                    between(with_default("64",
                                         "Decode: requests each GPU decodes per step (one "
                                         "token each), over all its micro-batches."),
                            1, 1'000'000)));
  f.push_back(field(
      "inference.context_len", MEMBER(inference.context_len),
      between(with_default("4096", "Decode: tokens in each request's KV cache."), 1, 10'000'000)));
  f.push_back(field("inference.redundant_experts", MEMBER(inference.redundant_experts),
                    between(with_default("0",
                                         "EPLB: replicas of the busiest experts added to the "
                                         "EP group (DeepSeek prefill 32, decode 64)."),
                            0, 1'000'000)));
  f.push_back(field("inference.shared_expert_routed", MEMBER(inference.shared_expert_routed),
                    with_default("false",
                                 "Decode: the shared expert counts as one more routed "
                                 "expert (9 per token for DeepSeek-V3).")));
  f.push_back(field("inference.mtp", MEMBER(inference.mtp),
                    with_default("false",
                                 "Decode: multi-token prediction drafts one extra token "
                                 "per step (speculative decoding).")));
  f.push_back(field("inference.mtp_acceptance", MEMBER(inference.mtp_acceptance),
                    between(with_default("0.85",
                                         "Decode with mtp: how often the drafted token "
                                         "is accepted (DeepSeek: 0.80 to 0.90)."),
                            0, 1)));
  f.push_back(field("inference.sampling", MEMBER(inference.sampling),
                    with_default("true",
                                 "The step ends with a sampling kernel that reads the logits "
                                 "(false: it ends at the logits, as a timed forward pass "
                                 "does).")));
  {
    FieldSpec counts = field(
        "inference.expert_counts", MEMBER(inference.expert_counts),
        optional_field("A run's routing: JSON {\"layers\": [[token-expert pairs of each routed "
                       "expert], ...]}, one list per MoE layer, relative to this file; each "
                       "layer's experts take their shares of the step's pairs (default: spread "
                       "evenly). Without expert parallelism."));
    counts.type = FieldType::path;
    f.push_back(std::move(counts));
  }
  f.push_back(field("inference.bound_hidden", MEMBER(inference.bound_hidden),
                    between(with_default("0",
                                         "Bound mode: channels per token on the wire; 0 = "
                                         "the model's hidden size (the paper's '7K' is "
                                         "7000)."),
                            0, 1'000'000)));

  // --- software (its vocabulary multiple pads the model's when the scenario is decoded)
  add_declared(f, "software.", MEMBER(software),
               [](auto&& declare) { workload::declare_software_parameters(declare); });
}

}  // namespace codesim::config::schema_fields
