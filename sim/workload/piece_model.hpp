// Compute time of each piece of a layer (docs/model/deepseek-v3.md §9's pieces: attn, mlp, head; F,
// B, W) for one micro-batch on one GPU: the piece's kernels (piece_kernels.hpp) priced one by one
// by the kernel cost model (models/cost), whose parameters come from kernel measurements:
//
//   - GEMMs, grouped GEMMs, fused attention and memory-bound classes: fitted to the H200 kernel
//     runs of models/calibration/h200 (cost::default_params, cost::attention_params);
//   - what only DeepSeek's H800 profile trace tells: its fine-grained-scaled FP8 GEMMs (a scale
//     on the FP8 GEMM efficiency) and its memory-bound kernels, fused casts and the small kernels
//     the op tables do not list (a scale on the norm, elementwise and cast efficiencies), fitted
//     per kernel class over the trace's pieces (trace_model.hpp; a test re-fits them).
//
// SMs held by communication kernels while a piece runs are taken from its kernels. Efficiencies
// are fractions of the GPU's peaks and bandwidth, measured on Hopper: on another architecture
// they are an assumption, which the run's notes name.
#pragma once

#include <vector>

#include "models/hardware/hardware_spec.hpp"
#include "models/llm/llm_spec.hpp"
#include "sim/core/note.hpp"
#include "sim/core/units.hpp"
#include "sim/workload/piece_kernels.hpp"
#include "sim/workload/software_stack.hpp"
#include "sim/workload/trace_model.hpp"

namespace codesim::workload {

struct PieceModel {
  KernelParams params;  // the H200 fits, with the trace's scales applied for `deepseek`
  TraceFit trace;       // the scales (1 but for `deepseek`; its per-piece comparison empty)
  StackInventory stack;  // what the software stack launches besides the op tables' kernels
  // Host time per kernel when the kernels are issued one by one; 0 when CUDA graphs replay them.
  // A piece then takes at least its kernels times this: the host cannot run ahead of the device
  // across a piece (an eager MoE layer syncs on its routing counts; a decode step is all small
  // kernels).
  core::Seconds host_per_kernel;
};

// How a step's kernels are issued (`software.cuda_graphs`), and whether under autograd.
struct LaunchMode {
  bool cuda_graphs = true;
  bool inference = false;  // a forward without autograd: prefill and decode
};

// The H200 kernel fits and the scales fitted to models/calibration/deepseek-h800/train.json
// (H800, DeepSeek-V3, 4096 tokens, 20 SMs for DeepEP), written out.
PieceModel deepseek_profile();

// A software stack's compute model: `deepseek` is deepseek_profile(); `pytorch` and `fused` the
// H200 fits with their kernel inventories (software_stack.hpp); without CUDA graphs, the stack's
// host cost per kernel.
PieceModel stack_profile(SoftwareStack s, LaunchMode launch = {});

// The trace's setting (model, tokens, GPU, SMs held) with the H200 fits, for re-fitting it.
TraceSetting deepseek_trace_setting(const llm::LlmSpec& deepseek_v3);

struct PieceContext {
  const llm::LlmSpec* model = nullptr;
  hardware::GpuSpec gpu;
  KernelContext kernels;
  int held_sms = 0;  // SMs communication holds while the piece runs
  double clock = 1;  // the SM clock over its top (the power governor's, clock_model.hpp)
};

// An attention, mlp or head piece in a pass; `layer` picks dense or MoE.
core::Seconds piece_time(const PieceModel& pm, const PieceContext& c, PieceId piece, int layer);

// The communication stream's own kernels before a transfer (combine(B)'s cast to FP8).
core::Seconds piece_overhead(const PieceModel& pm, const PieceContext& c, PieceId piece);

// What the piece model's figures are and where they come from.
std::vector<core::Note> piece_model_notes(const PieceModel& pm, const hardware::GpuSpec& gpu);

// A piece's kernels as the model's stack runs them (stack_kernels.hpp), priced.
PieceCost piece_cost(const PieceModel& pm, const PieceContext& c, PieceId piece,
                     const llm::LayerKind& layer);

}  // namespace codesim::workload
