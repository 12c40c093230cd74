// Fused attention: FLOPs, fitted efficiency terms, and the roofline against HBM.
#include "models/cost/attention_cost.hpp"

#include <algorithm>

#include "models/calibration/attention.hpp"

namespace codesim::cost {

AttentionParams attention_params() {
  // Fitted by tools/calibration/fit_attention.py to the attention cases of
  // models/calibration/h200/h200_kernels.json that are not held out (PyTorch 2.11
  // scaled_dot_product_attention on the lent H200, 2026-12-01; head dims 64, 128, 192 and MLA's
  // 192/128, sequences 2K-128K) and, forward, to two thirds of the few-heads cases of
  // models/calibration/h100/kernels/attention_small.json (the lent H100, 2026-12-06; 16-512 heads
  // x batch, 1K-8K tokens). Error, fitted / held out: forward median 3.1% / 3.3%, worst 14.5% /
  // 10.2%; forward + backward median 4.3% / 6.9%, worst 16.5% / 37.1% (the held-out worst is head
  // dim 192's backward). The tail term of forward + backward is the forward's (no few-heads
  // backward measured). On another architecture these Hopper efficiencies are an assumption.
  // The terms are fit_attention.json's, embedded at build time.
  namespace fit = calibration::attention;
  return {.forward = {.a = fit::forward_a,
                      .d0 = fit::forward_d0,
                      .s0 = fit::forward_s0,
                      .tail = fit::forward_tail},
          .forward_backward = {.a = fit::forward_backward_a,
                               .d0 = fit::forward_backward_d0,
                               .s0 = fit::forward_backward_s0,
                               .tail = fit::forward_backward_tail}};
}

namespace {

// The FLOPs of a pass against its forward's: forward + backward 3.5 (the backward recomputes the
// scores and takes two more products), the backward alone 2.5.
double passes_of(AttentionPass p) {
  switch (p) {
    case AttentionPass::forward:
      return 1.0;
    case AttentionPass::forward_backward:
      return 3.5;
    case AttentionPass::backward:
      return 2.5;
  }
  return 1.0;
}

}  // namespace

core::Flops attention_flops(const AttentionShape& s) {
  const double keys = s.keys > 0 ? s.keys : s.seq * (s.causal ? 0.5 : 1.0);
  const double pairs = s.batch * s.heads * s.seq * keys;
  return core::Flops(passes_of(s.pass) * 2.0 * pairs * (s.d_qk + s.d_v));
}

KernelCost predict_attention(const AttentionShape& s, const hardware::GpuSpec& gpu, int sms,
                             const AttentionParams& p, const CostParams& common) {
  if (s.pass == AttentionPass::backward) {
    AttentionShape both = s;
    both.pass = AttentionPass::forward_backward;
    AttentionShape forward = s;
    forward.pass = AttentionPass::forward;
    KernelCost c = predict_attention(both, gpu, sms, p, common);
    const KernelCost f = predict_attention(forward, gpu, sms, p, common);
    c.time = c.time - f.time + common.launch_overhead;
    c.flops = attention_flops(s);
    c.bytes = c.bytes - f.bytes;
    return c;
  }
  KernelCost c;
  c.sms = std::clamp(sms, 1, gpu.sms);
  const double share = static_cast<double>(c.sms) / gpu.sms;
  const AttentionTerms& t = s.pass == AttentionPass::forward ? p.forward : p.forward_backward;
  const double reach = s.reach > 0 ? std::min(s.seq, s.reach) : s.seq;
  const double d = (s.d_qk + s.d_v) / 2.0;
  c.efficiency = t.a * d / (d + t.d0) * reach / (reach + t.s0);
  c.flops = attention_flops(s);
  // One query tile over the keys it reaches, as many passes as the FLOPs count, at one SM's share
  // of the peak.
  const double tile_flops =
      passes_of(s.pass) * 2.0 * calibration::attention::tile_rows * reach * (s.d_qk + s.d_v);
  // Q, K, V read and O written once (BF16); with backward also dO read, dQ, dK, dV written.
  const double tokens = s.batch * s.heads * s.seq;
  const double once = tokens * (2.0 * s.d_qk + 2.0 * s.d_v) * 2;
  c.bytes = core::Bytes(s.pass == AttentionPass::forward ? once : 2 * once + tokens * s.d_v * 2);
  const core::Seconds compute =
      c.flops / (gpu.bf16_peak * share * c.efficiency) +
      core::Flops(t.tail * tile_flops) / (gpu.bf16_peak * (1.0 / gpu.sms) * c.efficiency);
  const core::Seconds memory = c.bytes / (gpu.hbm_bandwidth * common.memcpy_efficiency);
  c.bound = compute >= memory ? "compute" : "memory";
  c.time = std::max(compute, memory) + common.launch_overhead;
  return c;
}

}  // namespace codesim::cost
