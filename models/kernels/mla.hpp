// Multi-head latent attention forward (DeepSeek-V2/V3), naive and with the up-projections
// absorbed, and the SwiGLU expert MLP; each reports the FLOPs of its matrix products.
//
// naive:    c_kv = x W_dkv; k_nope_h = c_kv W_uk_h; v_h = c_kv W_uv_h; scores_h = q_nope_h
// k_nope_h^T
//           + q_rope_h k_rope^T; o_h = softmax(scores_h / sqrt(d_qk), causal) v_h; out = [o_h] W_o
// absorbed: q_lat_h = q_nope_h W_uk_h^T; scores_h = q_lat_h c_kv^T + q_rope_h k_rope^T;
//           o_h = (softmax(...) c_kv) W_uv_h (what inference does: the cache holds c_kv, k_rope).
#pragma once

#include <cstdint>

#include "models/kernels/gate.hpp"
#include "models/llm/llm_spec.hpp"

namespace codesim::kernels {

struct MlaWeights {
  llm::MlaSpec shape;
  int hidden = 0;
  int heads = 0;
  RowMatrixXf wq_a;   // hidden x q_lora (or hidden x heads*d_qk when q_lora_rank = 0)
  RowMatrixXf wq_b;   // q_lora x heads*d_qk
  RowMatrixXf wkv_a;  // hidden x (kv_lora + rope)
  RowMatrixXf wkv_b;  // kv_lora x heads*(nope + v)
  RowMatrixXf wo;     // heads*v x hidden
};

MlaWeights random_mla_weights(const llm::MlaSpec& shape, int hidden, int heads, std::uint64_t seed);

struct KernelResult {
  RowMatrixXf out;
  double flops = 0;  // matrix products only, 2mkn each
};

// x: tokens x hidden, one causal sequence.
KernelResult mla_naive(const RowMatrixXf& x, const MlaWeights& w);
KernelResult mla_absorbed(const RowMatrixXf& x, const MlaWeights& w);

// y = (silu(x W_gate) * (x W_up)) W_down.
KernelResult swiglu_mlp(const RowMatrixXf& x, const RowMatrixXf& w_gate, const RowMatrixXf& w_up,
                        const RowMatrixXf& w_down);

}  // namespace codesim::kernels
