// The scenario fields of what runs: parallelism, schedule, workload, routing, inference.
#include <algorithm>
#include <limits>

#include "models/hardware/catalog.hpp"
#include "models/llm/catalog.hpp"
#include "models/llm/config_json.hpp"
#include "sim/config/schema_field.hpp"
#include "sim/core/text.hpp"
#include "sim/workload/parameters.hpp"

namespace codesim::config::schema_fields {

void add_run_fields(std::vector<FieldSpec>& f) {
  // --- parallelism
  f.push_back(field("parallelism.pp", MEMBER(parallelism.pp),
                    between(with_default("1", "Pipeline-parallel stages."), 1, 1024)));
  f.push_back(field(
      "parallelism.ep", MEMBER(parallelism.ep),
      between(with_default("1", "Expert-parallel group size (GPUs sharing one layer's experts)."),
              1, 1'000'000)));
  f.push_back(field("parallelism.tp", MEMBER(parallelism.tp),
                    between(with_default("1", "Tensor-parallel degree."), 1, 1024)));
  f.push_back(field("parallelism.dp", MEMBER(parallelism.dp),
                    between(derived("GPUs / (pp x tp x cp)", "Data-parallel replicas per stage."),
                            1, 1'000'000)));
  f.back().derive = [](const Scenario& s) {
    // pp or tp is 0 when it failed to decode (that error is reported): derive as if 1.
    const int per_replica = std::max(1, s.parallelism.pp) * std::max(1, s.parallelism.tp) *
                            std::max(1, s.parallelism.cp);
    return Value(std::int64_t{s.gpus() / per_replica});
  };
  f.push_back(
      field("parallelism.cp", MEMBER(parallelism.cp),
            between(with_default("1",
                                 "Context parallelism: each sequence's tokens over this many GPUs "
                                 "(in 2 x cp chunks for causal balance), K and V all-gathered per "
                                 "layer in forward, their gradients reduce-scattered in backward."),
                    1, 1024)));
  f.push_back(field("parallelism.sp", MEMBER(parallelism.sp),
                    with_default("true",
                                 "Megatron sequence parallelism with tp > 1: norms and "
                                 "the routed experts' tokens split over the TP group, an "
                                 "all-gather and a reduce-scatter per TP region "
                                 "(without it, one all-reduce).")));
  f.push_back(field("parallelism.tp_overlap", MEMBER(parallelism.tp_overlap),
                    with_default("false",
                                 "Hide the TP collectives under the GEMMs (as recent "
                                 "frameworks overlap them); they still load the links.")));
  f.push_back(
      field("parallelism.zero", MEMBER(parallelism.zero),
            between(with_default("1",
                                 "ZeRO stage over data parallelism: 0 shards nothing (gradients "
                                 "all-reduced, every replica updates every parameter), 1 shards "
                                 "the optimizer state, 2 the gradients too, 3 the parameters too "
                                 "(gathered per layer before its forward and backward)."),
                    0, 3)));
  f.push_back(field("parallelism.dp_overlap", MEMBER(parallelism.dp_overlap),
                    with_default("true",
                                 "The gradients' reduction over data parallelism overlaps the "
                                 "backward, bucket by bucket in each stage's last chunk; false: "
                                 "it starts when the rank's backward has ended (Megatron-LM's "
                                 "2021 DDP). Needs zero 0 or 1.")));

  // --- schedule
  add_declared(f, "schedule.", MEMBER(schedule),
               [](auto&& declare) { workload::declare_schedule_parameters(declare); });

  // --- workload
  f.push_back(field("workload.kind", MEMBER(workload.kind),
                    with_default("train", "What step is simulated.")));
  f.push_back(field("workload.seq_len", MEMBER(workload.seq_len),
                    between(with_default("4096", "Tokens per sequence."), 1, 10'000'000)));
  f.push_back(field("workload.global_batch_sequences", MEMBER(workload.global_batch_sequences),
                    between(derived("dp x micro_batch_sequences",
                                    "Sequences per optimizer step, over all data-parallel ranks."),
                            1, 1'000'000'000)));
  f.back().derive = [](const Scenario& s) {
    return Value(std::int64_t{s.parallelism.dp} * s.schedule.micro_batch_sequences);
  };
  f.push_back(
      field("workload.recompute", MEMBER(workload.recompute),
            with_default("none",
                         "Activation recomputation: none, selective (the attention core's "
                         "scores, which a fused attention backward recomputes anyway) or full "
                         "(every layer's forward again before its backward; layer inputs kept).")));
  f.push_back(field("workload.dropout", MEMBER(workload.dropout),
                    with_default("false",
                                 "Training applies dropout (Megatron-LM's default 0.1 on the "
                                 "attention probabilities and the hidden states): a mask kept per "
                                 "element of the residual stream's dropouts, and with "
                                 "software.attention unfused a dropout kernel and mask over the "
                                 "attention probabilities (flash attention draws its mask inside "
                                 "the kernel).")));
  f.push_back(field("workload.precision.gemm", MEMBER(workload.precision.gemm),
                    with_default("fp8", "Precision of the GEMMs that DeepSeek runs in FP8.")));
  f.push_back(field("workload.precision.dispatch", MEMBER(workload.precision.dispatch),
                    with_default("fp8", "Payload format of expert dispatch.")));
  f.push_back(field("workload.precision.combine", MEMBER(workload.precision.combine),
                    with_default("bf16", "Payload format of expert combine.")));
  f.push_back(field("workload.precision.master_weights", MEMBER(workload.precision.master_weights),
                    with_default("true",
                                 "The optimizer keeps FP32 master weights beside the BF16 ones "
                                 "(false: it updates the BF16 weights in place, as a model "
                                 "trained in BF16 with torch.optim does).")));
  f.push_back(field("workload.precision.gradients", MEMBER(workload.precision.gradients),
                    with_default("fp32",
                                 "Element type of the gradients kept and reduced across "
                                 "data-parallel replicas: fp32 or bf16.")));
  f.push_back(field("workload.precision.optimizer_states",
                    MEMBER(workload.precision.optimizer_states),
                    with_default("bf16",
                                 "Element type of AdamW's two moments (DeepSeek-V3: bf16; "
                                 "torch.optim: the parameters' type).")));

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
