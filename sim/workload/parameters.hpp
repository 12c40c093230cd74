// The keys sim/workload's specs take, declared beside them (core/parameter.hpp): each key's doc,
// default and range. The schedule:, software: and routing: sections, and the power of what is
// not a GPU (hardware.nic_power, switch_power, host_power), and the inference: section.
#pragma once

#include <algorithm>
#include <climits>
#include <string>

#include "models/llm/llm_spec.hpp"
#include "sim/core/parameter.hpp"
#include "sim/workload/inference_step_spec.hpp"
#include "sim/workload/parallelism_spec.hpp"
#include "sim/workload/routing_spec.hpp"
#include "sim/workload/schedule_spec.hpp"
#include "sim/workload/software_spec.hpp"
#include "sim/workload/step_power.hpp"
#include "sim/workload/workload_spec.hpp"

namespace codesim::workload {

// Calls declare(key, accessor, info[, derive]) for every key of ParallelismSpec, in the schema's
// order.
template <class Declare>
void declare_parallelism_parameters(Declare&& declare) {
  using namespace core;
  declare("pp", MEMBER(pp), between(with_default("1", "Pipeline-parallel stages."), 1, 1024));
  declare("ep", MEMBER(ep),
          between(with_default("1",
                               "Expert-parallel group size (GPUs sharing one layer's "
                               "experts)."),
                  1, 1'000'000));
  declare("tp", MEMBER(tp), between(with_default("1", "Tensor-parallel degree."), 1, 1024));
  declare(
      "dp", MEMBER(dp),
      between(derived("GPUs / (pp x tp x cp)", "Data-parallel replicas per stage."), 1, 1'000'000),
      [](const ParallelismSpec& p, auto, auto spelled) {
        const long long gpus =
            std::stoll(spelled("hardware.nodes")) * std::stoll(spelled("hardware.gpus_per_node"));
        // pp or tp is 0 when it failed to decode (that error is reported): derive as if 1.
        return static_cast<int>(gpus / (std::max(1, p.pp) * std::max(1, p.tp) * std::max(1, p.cp)));
      });
  declare("cp", MEMBER(cp),
          between(with_default("1",
                               "Context parallelism: each sequence's tokens over this many GPUs "
                               "(in 2 x cp chunks for causal balance), K and V all-gathered per "
                               "layer in forward, their gradients reduce-scattered in backward."),
                  1, 1024));
  declare("sp", MEMBER(sp),
          with_default("true",
                       "Megatron sequence parallelism with tp > 1: norms and the routed "
                       "experts' tokens split over the TP group, an all-gather and a "
                       "reduce-scatter per TP region (without it, one all-reduce)."));
  declare("tp_overlap", MEMBER(tp_overlap),
          with_default("false",
                       "Hide the TP collectives under the GEMMs (as recent frameworks overlap "
                       "them); they still load the links."));
  declare("zero", MEMBER(zero),
          between(with_default("1",
                               "ZeRO stage over data parallelism: 0 shards nothing (gradients "
                               "all-reduced, every replica updates every parameter), 1 shards the "
                               "optimizer state, 2 the gradients too, 3 the parameters too "
                               "(gathered per layer before its forward and backward)."),
                  0, 3));
  declare("dp_overlap", MEMBER(dp_overlap),
          with_default("true",
                       "The gradients' reduction over data parallelism overlaps the backward, "
                       "bucket by bucket in each stage's last chunk; false: it starts when the "
                       "rank's backward has ended (Megatron-LM's 2021 DDP). Needs zero 0 or 1."));
}

// Calls declare(key, accessor, info[, derive]) for every key of WorkloadSpec, in the schema's
// order.
template <class Declare>
void declare_workload_parameters(Declare&& declare) {
  using namespace core;
  declare("kind", MEMBER(kind), with_default("train", "What step is simulated."));
  declare("seq_len", MEMBER(seq_len),
          between(with_default("4096", "Tokens per sequence."), 1, 10'000'000));
  declare("global_batch_sequences", MEMBER(global_batch_sequences),
          between(derived("dp x micro_batch_sequences",
                          "Sequences per optimizer step, over all data-parallel ranks."),
                  1, 1'000'000'000),
          [](const WorkloadSpec&, auto, auto spelled) {
            const long long sequences = std::stoll(spelled("parallelism.dp")) *
                                        std::stoll(spelled("schedule.micro_batch_sequences"));
            return static_cast<int>(std::min<long long>(sequences, INT_MAX));
          });
  declare("recompute", MEMBER(recompute),
          with_default("none",
                       "Activation recomputation: none, selective (the attention core's scores, "
                       "which a fused attention backward recomputes anyway) or full (every "
                       "layer's forward again before its backward; layer inputs kept)."));
  declare("dropout", MEMBER(dropout),
          with_default("false",
                       "Training applies dropout (Megatron-LM's default 0.1 on the attention "
                       "probabilities and the hidden states): a mask kept per element of the "
                       "residual stream's dropouts, and with software.attention unfused a "
                       "dropout kernel and mask over the attention probabilities (flash "
                       "attention draws its mask inside the kernel)."));
  declare("precision.gemm", MEMBER(precision.gemm),
          with_default("fp8", "Precision of the GEMMs that DeepSeek runs in FP8."));
  declare("precision.dispatch", MEMBER(precision.dispatch),
          with_default("fp8", "Payload format of expert dispatch."));
  declare("precision.combine", MEMBER(precision.combine),
          with_default("bf16", "Payload format of expert combine."));
  declare("precision.master_weights", MEMBER(precision.master_weights),
          with_default("true",
                       "The optimizer keeps FP32 master weights beside the BF16 ones (false: it "
                       "updates the BF16 weights in place, as a model trained in BF16 with "
                       "torch.optim does)."));
  declare("precision.gradients", MEMBER(precision.gradients),
          with_default("fp32",
                       "Element type of the gradients kept and reduced across data-parallel "
                       "replicas: fp32 or bf16."));
  declare("precision.optimizer_states", MEMBER(precision.optimizer_states),
          with_default("bf16",
                       "Element type of AdamW's two moments (DeepSeek-V3: bf16; torch.optim: "
                       "the parameters' type)."));
}

// Calls declare(key, accessor, info) for every key of ScheduleSpec, in the schema's order.
template <class Declare>
void declare_schedule_parameters(Declare&& declare) {
  using namespace core;
  declare("method", MEMBER(method), with_default("1f1b", "Pipeline schedule."));
  declare("virtual_stages", MEMBER(virtual_stages),
          between(with_default("1",
                               "Stages per pipeline rank of interleaved-1f1b (Megatron's virtual "
                               "pipeline stages); 1 for the other methods."),
                  1, 1024));
  declare("micro_batch_sequences", MEMBER(micro_batch_sequences),
          between(with_default("1", "Sequences per micro-batch per data-parallel rank."), 1,
                  1'000'000));
}

// Calls declare(key, accessor, info) for every key of RoutingSpec, in the schema's order.
template <class Declare>
void declare_routing_parameters(Declare&& declare) {
  using namespace core;
  declare("node_limit", MEMBER(node_limit),
          between(from_preset("model",
                              "M: at most M nodes (expert groups) per token; the model's "
                              "limited-group count by default."),
                  1, 1024));
  declare("dispatch", MEMBER(dispatch),
          with_default("deepep-normal", "Expert-parallel dispatch and combine algorithm."));
  declare("balance", MEMBER(balance),
          with_default("bias", "Expert load balancing: none, aux-loss-free bias, or perfect."));
  declare("skew.zipf", MEMBER(skew.zipf),
          between(with_default("0",
                               "Zipf exponent of topic popularity in the synthetic tokens (0 = "
                               "uniform)."),
                  0, 10));
  declare("skew.topics", MEMBER(skew.topics),
          between(with_default("1", "Topic clusters in the synthetic tokens."), 1, 1'000'000));
  declare("seed", MEMBER(seed),
          at_least(with_default("1", "Seed of the synthetic tokens and gate weights."), 0));
  declare("plans", MEMBER(plans),
          between(with_default("4",
                               "Routing plans per step (token samples through one balanced "
                               "gate); layers and micro-batches take them in turn."),
                  1, 64));
  declare("sample_tokens", MEMBER(sample_tokens),
          between(with_default("1024",
                               "Tokens per GPU each plan routes; its bytes are scaled to the "
                               "micro-batch's tokens."),
                  8, 1'000'000));
  declare("balance_steps", MEMBER(balance_steps),
          between(with_default("100",
                               "Bias-balancing steps before routing when balance is bias or "
                               "perfect."),
                  0, 100'000));
}

// Calls declare(key, accessor, info[, derive]) for every key of SoftwareSpec, in the schema's
// order.
template <class Declare>
void declare_software_parameters(Declare&& declare) {
  using namespace core;
  declare("stack", MEMBER(stack),
          with_default("fused",
                       "Whose kernels the step runs, and so what each op costs: pytorch (eager "
                       "PyTorch), fused (torch.compile, standing in for Transformer Engine-style "
                       "fusion) or deepseek (DeepSeek's own kernels, from its H800 profile "
                       "trace). docs/model/software-stacks.md."));
  declare(
      "cuda_graphs", MEMBER(cuda_graphs),
      derived("true for decode steps, false otherwise",
              "The step's kernels are replayed from CUDA graphs. Without, the host issues "
              "each kernel (the stack's measured cost per kernel) and a piece of a layer "
              "takes at least its kernels times that: what small kernels (decode, small "
              "micro-batches) lose without graphs."),
      [](const SoftwareSpec&, auto, auto spelled) { return spelled("workload.kind") == "decode"; });
  declare("optimizer", MEMBER(optimizer),
          derived("foreach for stack pytorch, fused otherwise",
                  "How AdamW's update runs: fused (one kernel per step over the shard: torch's "
                  "fused=True, apex or Transformer Engine's FusedAdam, DeepSeek's) or foreach "
                  "(PyTorch's default, eight multi-tensor kernels: about 2.5x the bytes)."),
          [](const SoftwareSpec& s, auto, auto) {
            return s.stack == SoftwareStack::pytorch ? OptimizerKernels::foreach
                                                     : OptimizerKernels::fused;
          });
  declare("attention", MEMBER(attention),
          with_default("flash",
                       "How attention's core runs: flash (one fused kernel; the scores never "
                       "reach HBM) or unfused (Megatron-LM's 2021 core attention: the scores "
                       "written by a batched GEMM, a fused softmax, dropout on the probabilities "
                       "with workload.dropout, a batched GEMM with V; kernels measured on the "
                       "H200, docs/model/software-stacks.md)."));
  declare("vocab_multiple", MEMBER(vocab_multiple),
          between(with_default("1",
                               "The framework pads the vocabulary to a multiple of this, and the "
                               "output head and embedding run padded (Megatron: 128 x TP; 1 for "
                               "a Hugging Face model). A BF16 head whose vocabulary is not a "
                               "multiple of 8 runs cuBLAS's slow unaligned kernels."),
                  1, 1'000'000));
}

// Calls declare(key, accessor, info) for every key of FacilityPower, in the schema's order.
template <class Declare>
void declare_facility_parameters(Declare&& declare) {
  using namespace core;
  declare("nic_power", MEMBER(nic_w),
          between(with_default("25",
                               "Watts per scale-out NIC (assumed: a 400G adapter's order of "
                               "magnitude; docs/model/power.md)."),
                  0, 10'000));
  declare("switch_power", MEMBER(switch_w),
          between(with_default("750",
                               "Watts per scale-out switch (assumed: a 64-port 400G switch's "
                               "order of magnitude; docs/model/power.md)."),
                  0, 100'000));
  declare("host_power", MEMBER(host_w),
          between(with_default("4400",
                               "Watts of host per 8 GPUs, besides the GPUs and NICs (DGX H100's "
                               "10.2 kW maximum less its 8 x 700 W GPUs and 8 NICs at 25 W: an "
                               "upper bound; docs/model/power.md)."),
                  0, 1'000'000));
}

// Calls declare(key, accessor, info[, derive]) for every key of InferenceStepSpec, in the schema's
// order. micro_batches' derived default takes the scenario's model too (an MoE's or not).
template <class Declare>
void declare_inference_parameters(Declare&& declare) {
  using namespace core;
  declare("mode", MEMBER(mode),
          with_default("model",
                       "model: the simulator's full model (compute, latencies, overlap); "
                       "bound: DeepSeek's ISCA 2.3.2 upper bound, communication only."));
  declare("micro_batches", MEMBER(micro_batches),
          between(derived("2 for an MoE model with ep > 1, else 1",
                          "Micro-batches overlapped in a prefill or decode step (one's "
                          "attention under the other's dispatch, MoE and combine)."),
                  1, 16),
          [](const InferenceStepSpec&, auto, auto spelled, const llm::LlmSpec& model) {
            return default_micro_batches(model, std::stoll(spelled("parallelism.ep")));
          });
  declare("prompt_tokens_per_gpu", MEMBER(prompt_tokens_per_gpu),
          between(with_default("16384",
                               "Prefill: prompt tokens each GPU computes per "
                               "step, over all its micro-batches."),
                  1, 100'000'000));
  declare("requests_per_gpu", MEMBER(requests_per_gpu),
          between(with_default("64",
                               "Decode: requests each GPU decodes per step (one "
                               "token each), over all its micro-batches."),
                  1, 1'000'000));
  declare(
      "context_len", MEMBER(context_len),
      between(with_default("4096", "Decode: tokens in each request's KV cache."), 1, 10'000'000));
  declare("redundant_experts", MEMBER(redundant_experts),
          between(with_default("0",
                               "EPLB: replicas of the busiest experts added to the "
                               "EP group (DeepSeek prefill 32, decode 64)."),
                  0, 1'000'000));
  declare("shared_expert_routed", MEMBER(shared_expert_routed),
          with_default("false",
                       "Decode: the shared expert counts as one more routed "
                       "expert (9 per token for DeepSeek-V3)."));
  declare("mtp", MEMBER(mtp),
          with_default("false",
                       "Decode: multi-token prediction drafts one extra token "
                       "per step (speculative decoding)."));
  declare("mtp_acceptance", MEMBER(mtp_acceptance),
          between(with_default("0.85",
                               "Decode with mtp: how often the drafted token "
                               "is accepted (DeepSeek: 0.80 to 0.90)."),
                  0, 1));
  declare("sampling", MEMBER(sampling),
          with_default("true",
                       "The step ends with a sampling kernel that reads the logits "
                       "(false: it ends at the logits, as a timed forward pass "
                       "does)."));
  declare("expert_counts", MEMBER(expert_counts),
          file_path(optional_field(
              "A run's routing: JSON {\"layers\": [[token-expert pairs of each routed "
              "expert], ...]}, one list per MoE layer, relative to this file; each "
              "layer's experts take their shares of the step's pairs (default: spread "
              "evenly). Without expert parallelism.")));
  declare("bound_hidden", MEMBER(bound_hidden),
          between(with_default("0",
                               "Bound mode: channels per token on the wire; 0 = "
                               "the model's hidden size (the paper's '7K' is "
                               "7000)."),
                  0, 1'000'000));
}

}  // namespace codesim::workload
