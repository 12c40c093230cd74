// The keys sim/workload's specs take, declared beside them (core/parameter.hpp): each key's doc,
// default and range. The schedule:, software: and routing: sections, and the power of what is
// not a GPU (hardware.nic_power, switch_power, host_power).
#pragma once

#include "sim/core/parameter.hpp"
#include "sim/workload/routing_spec.hpp"
#include "sim/workload/schedule_spec.hpp"
#include "sim/workload/software_spec.hpp"
#include "sim/workload/step_power.hpp"

namespace codesim::workload {

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

}  // namespace codesim::workload
