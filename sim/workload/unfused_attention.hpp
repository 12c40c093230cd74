// Attention's core as Megatron-LM ran it before fused attention (2021), kernel by kernel, for one
// GPU's heads of a micro-batch (b sequences x n heads, s tokens; the full s x s square of
// scores is computed and masked: N = b n s s score elements):
//   F  scores   batched GEMM  b n x [s x d_qk] [d_qk x s]   (baddbmm, scaled by 1/sqrt(d))
//      softmax  4 bytes per score (read, write)
//      dropout  5 bytes per score (read, write, a 1-byte mask)          with workload.dropout
//      context  batched GEMM  b n x [s x s] [s x d_v]
//   B  dP = dO V^T and dV = P^T dO (batched GEMMs), dropout's backward (5 bytes per score, with
//      dropout), softmax's backward (6: read P and dP, write dS), the scale of dS (4: baddbmm's
//      backward), dQ = dS K and dK = dS^T Q (batched GEMMs), the scale of dQ and dK and a copy
//      of dK (4 bytes per Q/K element each)
// Each memory-bound kernel at its fraction of HBM bandwidth measured on the H200 at GPT-3 175B's
// shape over TP 8 (tools/calibration/fit_step_extras.py over h200_unfused_attention.json: PyTorch's
// softmax and dropout kernels standing in for Megatron's fused scaled masked softmax, which
// moves the same bytes). The GEMMs are priced by the GEMM model.
#pragma once

#include <vector>

#include "sim/workload/piece_kernels.hpp"

namespace codesim::workload {

struct UnfusedAttentionShape {
  double batch_heads = 0;  // sequences x heads on this GPU
  double seq = 0;          // tokens per sequence (queries and keys)
  double d_qk = 0;
  double d_v = 0;
  bool dropout = false;
};

// The kernels of the forward (Pass::forward) or the backward (Pass::backward) in launch order.
std::vector<PieceKernel> unfused_attention_kernels(const UnfusedAttentionShape& a, Pass pass);

}  // namespace codesim::workload
