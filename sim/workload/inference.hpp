// Prefill and decode steps on one GPU, dense or expert-parallel (docs/model/inference.md;
// docs/model/deepseek-v3.md §8), and DeepSeek's ISCA 2025 §2.3.2 upper bound on decode speed.
//
// Per layer and micro-batch a GPU runs attention (attention TP with sequence parallelism: the TP
// group's tokens through the GPU's share of the projection weights, and the core attention of
// its own requests, whose KV cache it holds), then dispatches its tokens to the experts, runs the
// experts it hosts on the tokens it received, and combines the results back. Two (or more)
// micro-batches alternate so that one's attention runs while another's tokens travel: the step is
// list-scheduled on two resources, the GPU's compute and its communication (DeepEP's low-latency
// kernels and hook-based overlap hold no SMs in decode; in prefill the normal kernels hold
// comm_sms, which the compute pieces lose). A dense layer runs its FFN instead; each micro-batch
// ends with the output head (prefill: the last token of each prompt) and sampling.
//
// Pieces are the forward pieces' kernels as the software stack runs them
// (sim/workload/piece_model.hpp); decode's attention core is decode attention by shape, with the
// stack's kernel (models/cost/decode_attention.hpp), after writing the new token into the cache.
// The routed experts' rows go to the experts they reach (n (1 - (1 - 1/n)^pairs) of the n a GPU
// hosts, routing uniform): a small decode batch reads only those experts' weights.
#pragma once

#include <string>
#include <vector>

#include "models/cost/clock_model.hpp"
#include "models/hardware/hardware_spec.hpp"
#include "models/llm/llm_spec.hpp"
#include "sim/core/units.hpp"
#include "sim/workload/inference_kind.hpp"
#include "sim/workload/piece_model.hpp"

namespace codesim::workload {

// One GPU's compute per layer and micro-batch.
struct InferenceSpec {
  const llm::LlmSpec* model = nullptr;
  hardware::GpuSpec gpu;
  InferencePhase phase = InferencePhase::decode;
  int tokens = 32;            // per micro-batch on this GPU: requests (decode) or prompt tokens
  int context_len = 4096;     // decode: KV-cache tokens per request; prefill: prompt length
  int tp = 1;                 // attention tensor parallelism (decode: the TP group's requests)
  int experts_per_gpu = 1;    // routed (and redundant) experts hosted per GPU
  double expert_tokens = 0;   // token-expert pairs the busiest GPU's experts take per micro-batch
  bool shared_expert = true;  // the shared experts run on the GPU's tokens (else as routed ones)
  bool sampling = true;       // a sampling kernel reads the logits (else the step ends at them)
  bool fp8_gemm = true;
  bool unfused_attention = false;  // software.attention unfused (prefill)
  // A run's routing: per MoE layer in order, each routed expert's share of the token-expert
  // pairs (sim/workload/expert_shares.hpp); empty: spread evenly. Without expert parallelism.
  std::vector<std::vector<double>> expert_shares;
  int held_sms = 0;                        // SMs the communication kernels hold while compute runs
  PieceModel pieces = deepseek_profile();  // the software stack's kernel costs
};

// One layer of a step: its attention piece (its span, and the router in a MoE layer), then its
// dense FFN, or the MoE's dispatch, experts and combine.
struct OverlapLayer {
  core::Seconds attention;
  bool moe = false;
  core::Seconds ffn;          // its dense FFN or its experts (and the shared one in prefill)
  cost::Work attention_work;  // their kernels by kind of work (their power)
  cost::Work ffn_work;
};

struct LayerPieces {
  core::Seconds attention;           // projections, core attention, norms: the mean over the layers
  std::vector<OverlapLayer> layers;  // each layer's attention and FFN
  core::Seconds dense_mlp;           // the FFN of a dense layer
  core::Seconds moe;  // the experts of a MoE layer (and the shared one in prefill): the
                      // mean over the MoE layers (each layer's own in `layers`)
  // The token embedding's lookup, the final norm, the output head (and sampling), once per
  // micro-batch (with pipeline parallelism all on the last stage: the lookup, one read and write
  // of the micro-batch's rows, belongs to the first).
  core::Seconds head;
  std::string attention_bound;  // what dominates: "memory-bound kernels" or "matrix and attention"
  std::string moe_bound;        // the FFN's: the experts', or a dense model's FFN
  // The dense FFN's and the head's kernels by kind of work (their power).
  cost::Work dense_mlp_work;
  cost::Work head_work;
};

LayerPieces inference_pieces(const InferenceSpec& s);

// One GPU's kernels over a step of `micro_batches` passes through the layers (and the head).
cost::Work step_work(const LayerPieces& p, int micro_batches, bool head);

// The pieces at SM clock ratio r (models/cost/clock_model.hpp): each stretched as its kernels'
// work is at that clock (what is not kernel work, the host's launches, stays).
LayerPieces at_clock(LayerPieces p, double ratio, const hardware::PowerSpec& power);

// Time of one step through `layers` with `micro_batches` micro-batches, each layer of each
// micro-batch: its attention, then dispatch, experts, combine (MoE) or the dense FFN. Compute
// (attention, FFN, experts) and communication (dispatch, combine) are two resources, each running
// its ready pieces in turn, earliest-ready first.
struct OverlapResult {
  core::Seconds step;
  core::Seconds compute_busy;
  core::Seconds comm_busy;
};
struct OverlapSpec {
  core::Seconds dispatch;  // per layer and micro-batch
  core::Seconds combine;
  std::vector<OverlapLayer> layers;
  int micro_batches = 1;
  bool head = true;  // the output head ends each micro-batch (a pipeline's last stage only)
};
OverlapResult overlap_step(const LayerPieces& p, const OverlapSpec& s);

// ISCA 2025 §2.3.2: communication alone, computation fully hidden, no latency. Per layer and
// micro-batch each GPU sends `tokens` x `experts_per_token` x `hidden` channels at
// `dispatch_bytes` + `combine_bytes` per channel over `bandwidth`; a token waits
// micro_batches x layers such transfers.
struct DecodeBoundSpec {
  int tokens = 32;  // per GPU and micro-batch
  int experts_per_token = 9;
  int hidden = 7168;          // channels per token on the wire
  double dispatch_bytes = 1;  // per channel
  double combine_bytes = 2;
  core::BytesPerSecond bandwidth;
  int layers = 61;
  int micro_batches = 2;
};
struct DecodeBound {
  core::Seconds per_layer_transfer;  // dispatch + combine of one micro-batch
  core::Seconds tpot;
  double tokens_per_second = 0;  // per request: 1 / TPOT
};
DecodeBound decode_bound(const DecodeBoundSpec& s);

// MTP as a speculative draft: each step emits 1 + acceptance tokens per request. The draft
// module's own cost is not charged (DeepSeek reports 1.8x tokens/s at 80-90% acceptance).
core::Seconds effective_tpot(core::Seconds step, bool mtp, double acceptance);

}  // namespace codesim::workload
