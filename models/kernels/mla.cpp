// MLA forward, both ways, and the SwiGLU MLP.
#include "models/kernels/mla.hpp"

#include <cmath>

#include "models/kernels/gemm.hpp"
#include "models/kernels/rng.hpp"

namespace codesim::kernels {
namespace {

RowMatrixXf random_matrix(int rows, int cols, Rng& rng) {
  RowMatrixXf m(rows, cols);
  const double sd = 1.0 / std::sqrt(static_cast<double>(rows));
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) {
      m(i, j) = static_cast<float>(rng.normal() * sd);
    }
  }
  return m;
}

void rms_norm(RowMatrixXf& x) {
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    const float rms = std::sqrt(x.row(r).squaredNorm() / static_cast<float>(x.cols()) + 1e-6f);
    x.row(r) /= rms;
  }
}

// Rotary embedding on consecutive pairs of the columns, position = row.
void rope(RowMatrixXf& x) {
  const auto d = x.cols();
  for (Eigen::Index pos = 0; pos < x.rows(); ++pos) {
    for (Eigen::Index i = 0; i + 1 < d; i += 2) {
      const double theta = static_cast<double>(pos) *
                           std::pow(10000.0, -static_cast<double>(i) / static_cast<double>(d));
      const float c = static_cast<float>(std::cos(theta));
      const float s = static_cast<float>(std::sin(theta));
      const float a = x(pos, i);
      const float b = x(pos, i + 1);
      x(pos, i) = a * c - b * s;
      x(pos, i + 1) = a * s + b * c;
    }
  }
}

// Causal softmax of scores / sqrt(d), row by row.
void causal_softmax(RowMatrixXf& scores, double d) {
  const auto scale = static_cast<float>(1.0 / std::sqrt(d));
  for (Eigen::Index r = 0; r < scores.rows(); ++r) {
    auto row = scores.row(r);
    row *= scale;
    for (Eigen::Index c = r + 1; c < scores.cols(); ++c) {
      row(c) = -INFINITY;
    }
    const float peak = row.head(r + 1).maxCoeff();
    row = (row.array() - peak).exp();
    row /= row.sum();
  }
}

// Shared by both forms: queries (nope and rope parts), the latent c_kv and the rope key.
struct Projections {
  RowMatrixXf q;       // tokens x heads*d_qk
  RowMatrixXf c_kv;    // tokens x kv_lora (normed)
  RowMatrixXf k_rope;  // tokens x rope (rotated)
};

Projections project(const RowMatrixXf& x, const MlaWeights& w, double& flops) {
  const auto& s = w.shape;
  const int d_qk = s.qk_nope_head_dim + s.qk_rope_head_dim;
  Projections p;
  if (s.q_lora_rank > 0) {
    RowMatrixXf c_q = gemm(x, w.wq_a, flops);
    rms_norm(c_q);
    p.q = gemm(c_q, w.wq_b, flops);
  } else {
    p.q = gemm(x, w.wq_a, flops);
  }
  const RowMatrixXf kv = gemm(x, w.wkv_a, flops);
  p.c_kv = kv.leftCols(s.kv_lora_rank);
  rms_norm(p.c_kv);
  p.k_rope = kv.rightCols(s.qk_rope_head_dim);
  rope(p.k_rope);
  for (int h = 0; h < w.heads; ++h) {
    RowMatrixXf q_rope = p.q.middleCols(h * d_qk + s.qk_nope_head_dim, s.qk_rope_head_dim);
    rope(q_rope);
    p.q.middleCols(h * d_qk + s.qk_nope_head_dim, s.qk_rope_head_dim) = q_rope;
  }
  return p;
}

}  // namespace

MlaWeights random_mla_weights(const llm::MlaSpec& shape, int hidden, int heads,
                              std::uint64_t seed) {
  Rng rng(seed);
  const int d_qk = shape.qk_nope_head_dim + shape.qk_rope_head_dim;
  MlaWeights w{shape, hidden, heads, {}, {}, {}, {}, {}};
  if (shape.q_lora_rank > 0) {
    w.wq_a = random_matrix(hidden, shape.q_lora_rank, rng);
    w.wq_b = random_matrix(shape.q_lora_rank, heads * d_qk, rng);
  } else {
    w.wq_a = random_matrix(hidden, heads * d_qk, rng);
  }
  w.wkv_a = random_matrix(hidden, shape.kv_lora_rank + shape.qk_rope_head_dim, rng);
  w.wkv_b =
      random_matrix(shape.kv_lora_rank, heads * (shape.qk_nope_head_dim + shape.v_head_dim), rng);
  w.wo = random_matrix(heads * shape.v_head_dim, hidden, rng);
  return w;
}

KernelResult mla_naive(const RowMatrixXf& x, const MlaWeights& w) {
  const auto& s = w.shape;
  const int d_qk = s.qk_nope_head_dim + s.qk_rope_head_dim;
  const int d_kv = s.qk_nope_head_dim + s.v_head_dim;
  KernelResult r;
  const Projections p = project(x, w, r.flops);
  const RowMatrixXf kv = gemm(p.c_kv, w.wkv_b, r.flops);  // tokens x heads*(nope + v)
  RowMatrixXf heads_out(x.rows(), w.heads * s.v_head_dim);
  for (int h = 0; h < w.heads; ++h) {
    RowMatrixXf k(x.rows(), d_qk);
    k << kv.middleCols(h * d_kv, s.qk_nope_head_dim), p.k_rope;
    const RowMatrixXf q = p.q.middleCols(h * d_qk, d_qk);
    RowMatrixXf scores = gemm(q, k.transpose(), r.flops);
    causal_softmax(scores, d_qk);
    const RowMatrixXf v = kv.middleCols(h * d_kv + s.qk_nope_head_dim, s.v_head_dim);
    heads_out.middleCols(h * s.v_head_dim, s.v_head_dim) = gemm(scores, v, r.flops);
  }
  r.out = gemm(heads_out, w.wo, r.flops);
  return r;
}

KernelResult mla_absorbed(const RowMatrixXf& x, const MlaWeights& w) {
  const auto& s = w.shape;
  const int d_qk = s.qk_nope_head_dim + s.qk_rope_head_dim;
  const int d_kv = s.qk_nope_head_dim + s.v_head_dim;
  KernelResult r;
  const Projections p = project(x, w, r.flops);
  RowMatrixXf heads_out(x.rows(), w.heads * s.v_head_dim);
  for (int h = 0; h < w.heads; ++h) {
    const RowMatrixXf w_uk = w.wkv_b.middleCols(h * d_kv, s.qk_nope_head_dim);  // kv_lora x nope
    const RowMatrixXf w_uv =
        w.wkv_b.middleCols(h * d_kv + s.qk_nope_head_dim, s.v_head_dim);  // kv_lora x v
    const RowMatrixXf q_nope = p.q.middleCols(h * d_qk, s.qk_nope_head_dim);
    const RowMatrixXf q_rope = p.q.middleCols(h * d_qk + s.qk_nope_head_dim, s.qk_rope_head_dim);
    const RowMatrixXf q_latent = gemm(q_nope, w_uk.transpose(), r.flops);
    RowMatrixXf scores = gemm(q_latent, p.c_kv.transpose(), r.flops);
    scores += gemm(q_rope, p.k_rope.transpose(), r.flops);
    causal_softmax(scores, d_qk);
    const RowMatrixXf o_latent = gemm(scores, p.c_kv, r.flops);
    heads_out.middleCols(h * s.v_head_dim, s.v_head_dim) = gemm(o_latent, w_uv, r.flops);
  }
  r.out = gemm(heads_out, w.wo, r.flops);
  return r;
}

KernelResult swiglu_mlp(const RowMatrixXf& x, const RowMatrixXf& w_gate, const RowMatrixXf& w_up,
                        const RowMatrixXf& w_down) {
  KernelResult r;
  const RowMatrixXf g = gemm(x, w_gate, r.flops);
  const RowMatrixXf u = gemm(x, w_up, r.flops);
  const RowMatrixXf a = (g.array() / (1.0f + (-g.array()).exp()) * u.array()).matrix();
  r.out = gemm(a, w_down, r.flops);
  return r;
}

}  // namespace codesim::kernels
