// Compute time of each piece of a layer (spec §9's pieces: attn, mlp; F, B, W) for one micro-batch
// on one GPU, from the model's work and efficiencies fitted to DeepSeek's profile trace:
//
//   GEMMs      model GEMM FLOPs / (dense peak of the GEMM dtype x e_gemm x usable SM share)
//   attention  QK^T + PV FLOPs / (BF16 peak x e_attn(F or B) x usable SM share)
//   other      the piece's other kernels (casts, norms, activations, permutes) as measured per
//              layer, scaled by tokens, hidden size and HBM bandwidth (they are memory-bound)
//
// The trace ran with 20 of 132 SMs held by DeepEP, so the fitted efficiencies are per full GPU
// with 20 SMs gone; the usable share rescales them to the SMs actually free:
// (SMs - held) / (SMs - 20) x 20-SM-era efficiency. Calibrated figures: see deepseek_profile().
#pragma once

#include <string>

#include "models/hardware/hardware_spec.hpp"
#include "models/llm/llm_spec.hpp"
#include "sim/core/note.hpp"
#include "sim/core/units.hpp"
#include "sim/workload/trace_model.hpp"

namespace codesim::workload {

struct PieceModel {
  TraceFit fit;
  hardware::GpuSpec measured_on;
  int measured_tokens = 0;  // per micro-batch and GPU
  int measured_hidden = 0;
  int measured_comm_sms = 0;
};

// The fit of `codesim trace replay` on models/calibration/deepseek-h800/train.json (H800,
// DeepSeek-V3, 4096 tokens, 20 SMs for DeepEP), written out; a test re-fits the trace and checks
// these figures.
PieceModel deepseek_profile();

struct PieceContext {
  const llm::LlmSpec* model = nullptr;
  hardware::GpuSpec gpu;
  int tokens = 4096;  // of the micro-batch on this GPU
  bool fp8_gemm = true;
  int held_sms = 0;  // SMs communication holds while the piece runs
};

// An attention or mlp piece in a pass; `layer` picks dense or MoE.
core::Seconds piece_time(const PieceModel& pm, const PieceContext& c, PieceId piece, int layer);

// The other (non-GEMM) kernels of a communication piece (combine(B): its FP8 casts), which run
// on the communication stream before the transfer.
core::Seconds piece_overhead(const PieceModel& pm, const PieceContext& c, PieceId piece);

// What the piece model's figures are and where they come from.
core::Note piece_model_note(const PieceModel& pm);

}  // namespace codesim::workload
