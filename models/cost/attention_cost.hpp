// Time of a fused attention kernel (FlashAttention-style: scores never leave the SMs) from its
// shape: batch, heads, sequence, query/key and value head dimensions, causal or not, forward or
// forward + backward.
//
//   FLOPs = 2 x (query-key pairs) x (d_qk + d_v)       (Q K^T and P V; pairs = B H S^2, half
//                                                        of it when causal), x 3.5 with backward
//   time  = FLOPs / (BF16 peak x SMs share x e) + k x tile FLOPs / (BF16 peak / SMs x e) + launch
//   e     = a x D / (D + d0) x S / (S + s0),   D = (d_qk + d_v) / 2
//
// D: a small head dimension does less matrix work per score (softmax, loads); s0: a short
// sequence pays each tile's prologue; the tile term: the kernel's last query tiles (128 rows over
// all S keys, as many passes as the FLOPs) run alone on their SMs, a fixed part that dominates
// at few heads x batch (a one-prompt prefill). A sliding or chunked window limits the pairs to
// the keys each query attends to, and S in e and the tile to the window (each query tile then
// runs over about a window of keys): an assumption, no windowed kernel measured. a, d0, s0, k per
// pass are fitted to H200 and H100 measurements (attention_params()); the larger of that and the
// HBM time of Q, K, V and O (and their gradients) bounds it.
#pragma once

#include "models/cost/kernel_cost.hpp"

namespace codesim::cost {

// backward: the forward + backward kernels less the forward (what a backward pass adds).
enum class AttentionPass { forward, forward_backward, backward };

struct AttentionShape {
  double batch = 1;
  double heads = 1;
  double seq = 0;  // query and key length
  int d_qk = 128;
  int d_v = 128;
  bool causal = true;
  AttentionPass pass = AttentionPass::forward;
  // Keys a query attends to on average (0: the causal triangle's seq / 2, or seq) and the
  // farthest back it reaches (a window; 0: the sequence).
  double keys = 0;
  double reach = 0;
};

struct AttentionTerms {
  double a = 1;     // efficiency scale
  double d0 = 0;    // head-dimension half point
  double s0 = 0;    // sequence half point
  double tail = 0;  // k: the last query tiles' time, in tiles run alone at one SM's rate
};

struct AttentionParams {
  AttentionTerms forward;
  AttentionTerms forward_backward;
};

// Fitted values and their data: attention_cost.cpp.
AttentionParams attention_params();

core::Flops attention_flops(const AttentionShape& s);

// `sms`: SMs left to the kernel.
KernelCost predict_attention(const AttentionShape& s, const hardware::GpuSpec& gpu, int sms,
                             const AttentionParams& p = attention_params(),
                             const CostParams& common = default_params());

}  // namespace codesim::cost
