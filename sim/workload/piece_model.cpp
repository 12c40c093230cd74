// Piece times from kernel lists and the calibrated kernel cost model.
#include "sim/workload/piece_model.hpp"

#include <stdexcept>

#include "models/cost/attention_cost.hpp"
#include "models/hardware/catalog.hpp"
#include "sim/core/text.hpp"

namespace codesim::workload {

PieceModel deepseek_profile() {
  PieceModel pm;
  // Fitted by fit_trace to DeepSeek's trace (tests/workload/piece_model_test.cpp re-fits it).
  pm.trace.fp8_gemm_scale = 0.91088;
  pm.trace.fp8_wgrad_scale = 0.61658;
  pm.trace.memory_scale = 0.31418;
  pm.params = with_trace_scales({cost::default_params(), cost::attention_params()}, pm.trace);
  return pm;
}

TraceSetting deepseek_trace_setting(const llm::LlmSpec& deepseek_v3) {
  return {.model = &deepseek_v3,
          .kernels = {.tokens = 4096, .seq_len = 4096, .fp8_gemm = true, .ep = 64},
          .gpu = hardware::find_preset("h800")->gpu,
          .held_sms = 20,
          .params = {cost::default_params(), cost::attention_params()}};
}

core::Seconds piece_time(const PieceModel& pm, const PieceContext& c, PieceId piece, int layer) {
  if (c.model == nullptr || c.kernels.tokens < 1) {
    throw std::invalid_argument("piece_time needs a model and a positive token count");
  }
  const auto kernels = piece_kernels(*c.model, piece, c.kernels, !c.model->is_moe_layer(layer));
  return price(kernels, c.gpu, c.gpu.sms - c.held_sms, pm.params).total;
}

core::Seconds piece_overhead(const PieceModel& pm, const PieceContext& c, PieceId piece) {
  return price(piece_kernels(*c.model, piece, c.kernels, false), c.gpu, c.gpu.sms - c.held_sms,
               pm.params)
      .total;
}

std::vector<core::Note> piece_model_notes(const PieceModel& pm, const hardware::GpuSpec& gpu) {
  std::vector<core::Note> notes{
      {core::NoteKind::fitted,
       "compute: each piece's kernels (GEMMs by shape with wave quantization, fused attention "
       "by heads, head dims and sequence, casts, norms, activations, rotary and permutes by "
       "bytes, " +
           core::fixed(pm.params.kernel.launch_overhead.value * 1e6, 2) +
           " us fixed per kernel) priced by the kernel model fitted to H200 kernel runs "
           "(models/calibration/h200); DeepSeek's FP8 GEMMs at " +
           core::fixed(pm.trace.fp8_gemm_scale, 3) +
           "x and its memory-bound kernels at " + core::fixed(pm.trace.memory_scale, 3) +
           "x the H200 efficiencies, fitted per kernel class to its H800 profile trace "
           "(models/calibration/deepseek-h800/train.json; every number in "
           "models/calibration/README.md)"}};
  if (gpu.architecture != hardware::Architecture::hopper) {
    notes.push_back({core::NoteKind::assumed,
                     "kernel efficiencies measured on Hopper (H200 kernels, DeepSeek's H800 "
                     "trace) are taken as the same fractions of this GPU's peaks and HBM "
                     "bandwidth, and its GEMM tiles as Hopper's 128 x 128 (or x 64)"});
  }
  return notes;
}

}  // namespace codesim::workload
