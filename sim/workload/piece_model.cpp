// Piece times from kernel lists and the calibrated kernel cost model.
#include "sim/workload/piece_model.hpp"

#include <stdexcept>

#include "models/calibration/deepgemm.hpp"
#include "models/calibration/trace_scales.hpp"
#include "models/cost/attention_cost.hpp"
#include "models/hardware/catalog.hpp"
#include "sim/core/text.hpp"
#include "sim/workload/stack_kernels.hpp"

namespace codesim::workload {

PieceModel deepseek_profile() {
  PieceModel pm;
  // Fitted by fit_trace to DeepSeek's trace, as tools/calibration/fit_trace_scales.py wrote them
  // (tests/workload/piece_model_test.cpp re-fits it).
  namespace scales = calibration::trace_scales;
  pm.trace.fp8_gemm_scale = scales::fp8_gemm_scale;
  pm.trace.fp8_wgrad_scale = scales::fp8_wgrad_scale;
  pm.trace.fp8_grouped_scale = scales::fp8_grouped_scale;
  pm.trace.fp8_grouped_wgrad_scale = scales::fp8_grouped_wgrad_scale;
  pm.trace.memory_scale = scales::memory_scale;
  pm.params = with_trace_scales({cost::default_params(), cost::attention_params()}, pm.trace);
  pm.stack = stack_inventory(SoftwareStack::deepseek);
  // DeepSeek decodes MLA with FlashMLA (its published rates: cost/decode_attention.cpp).
  pm.params.decode_mla = cost::DecodeAttentionKernel::flash_mla;
  // DeepGEMM fills the SMs of a few-row GEMM with 64 x 16 tiles and streams its operands at a
  // fraction of HBM: tools/calibration/fit_deepgemm.py, on DeepGEMM's published H800 table.
  pm.params.kernel.gemm_fp8_narrow_tile_n =
      static_cast<int>(calibration::deepgemm::deepgemm_narrow_tile_n);
  pm.params.kernel.gemm_memory_efficiency_fp8 = calibration::deepgemm::deepgemm_memory_efficiency;
  return pm;
}

PieceModel stack_profile(SoftwareStack s, LaunchMode launch) {
  PieceModel pm;
  if (s == SoftwareStack::deepseek) {
    pm = deepseek_profile();
  } else {
    pm.params = {cost::default_params(), cost::attention_params()};
    pm.stack = stack_inventory(s);
    if (s == SoftwareStack::fused) {
      // Assumed: the compiler fuses the absorbed MLA's four score kernels into one.
      pm.params.decode_mla = cost::DecodeAttentionKernel::mla_fused;
    }
  }
  if (!launch.cuda_graphs) {
    pm.host_per_kernel = launch.inference ? pm.stack.host.inference : pm.stack.host.training;
  }
  return pm;
}

PieceCost piece_cost(const PieceModel& pm, const PieceContext& c, PieceId piece,
                     const llm::LayerKind& layer) {
  PieceCost cost = price(stack_kernels(pm.stack, *c.model, piece, c.kernels, layer), c.gpu,
                         c.gpu.sms - c.held_sms, pm.params);
  if (c.clock < 1) {
    cost.total += cost::time_at(cost.work, c.clock, c.gpu.power) - cost.work.total();
  }
  const core::Seconds issued = pm.host_per_kernel * static_cast<double>(cost.kernels);
  if (issued > cost.total) {
    cost.host = issued - cost.total;
    cost.total = issued;
  }
  return cost;
}

TraceSetting deepseek_trace_setting(const llm::LlmSpec& deepseek_v3) {
  return {.model = &deepseek_v3,
          .kernels = {.tokens = 4096,
                      .seq_len = 4096,
                      .fp8_gemm = true,
                      .ep = 64,
                      .recompute_selected = true},
          .gpu = hardware::find_preset("h800")->gpu,
          .held_sms = 20,
          .params = {cost::default_params(), cost::attention_params()}};
}

core::Seconds piece_time(const PieceModel& pm, const PieceContext& c, PieceId piece, int layer) {
  if (c.model == nullptr || c.kernels.tokens < 1) {
    throw std::invalid_argument("piece_time needs a model and a positive token count");
  }
  return piece_cost(pm, c, piece, c.model->layer(layer)).total;
}

core::Seconds piece_overhead(const PieceModel& pm, const PieceContext& c, PieceId piece) {
  return piece_cost(pm, c, piece, llm::kMoeLayer).total;
}

std::vector<core::Note> piece_model_notes(const PieceModel& pm, const hardware::GpuSpec& gpu) {
  const std::string kernels =
      "compute: each piece's kernels (GEMMs by shape with wave quantization, grouped expert "
      "GEMMs by their CUTLASS configuration and tile schedule, fused attention "
      "by heads, head dims and sequence, casts, norms, activations, rotary and permutes by "
      "bytes, " +
      core::fixed(pm.params.kernel.launch_overhead.value * 1e6, 2) +
      " us fixed per kernel) priced by the kernel model fitted to H200 kernel runs "
      "(models/calibration/h200); ";
  std::vector<core::Note> notes;
  if (pm.stack.stack == SoftwareStack::deepseek) {
    notes.push_back(
        {core::NoteKind::fitted,
         kernels + "software.stack deepseek: DeepSeek's FP8 GEMMs at " +
             core::fixed(pm.trace.fp8_gemm_scale, 3) + "x, its grouped expert GEMMs at " +
             core::fixed(pm.trace.fp8_grouped_scale, 3) + "x and its memory-bound kernels at " +
             core::fixed(pm.trace.memory_scale, 3) +
             "x the H200 efficiencies, fitted per kernel class to its H800 profile trace "
             "(models/calibration/deepseek-h800/train.json; every number in "
             "models/calibration/README.md); in training the loss over the vocabulary as one "
             "fused pass and its backward, and the embedding table's gradient as FP32 adds, "
             "assumed (the trace's pieces are the layers')"});
  } else {
    notes.push_back(
        {core::NoteKind::fitted,
         kernels + "software.stack " + std::string(stack_name(pm.stack.stack)) + ": plus " +
             std::to_string(pm.stack.kernels.size()) +
             " kinds of kernel the stack launches besides the op tables' (token gathers, index "
             "copies and adds, MLA's cats, residual adds; in training the loss over the "
             "vocabulary and the embedding table's gradient), read from H200 layer and step traces "
             "and priced at their kernels' "
             "measured HBM rates (docs/model/software-stacks.md)"});
  }
  if (pm.host_per_kernel.value > 0) {
    notes.push_back(
        {pm.stack.stack == SoftwareStack::deepseek ? core::NoteKind::assumed
                                                   : core::NoteKind::fitted,
         "software.cuda_graphs false: the host issues each kernel in " +
             core::fixed(pm.host_per_kernel.value * 1e6, 1) + " us (" +
             (pm.stack.stack == SoftwareStack::deepseek
                  ? std::string("never measured for DeepSeek's stack: torch.compile's, ")
                  : std::string()) +
             "measured on tiny layers on the H200's host, models/calibration/README.md), so a "
             "piece takes at least its kernels times that; host speed varies by a third "
             "between sittings"});
  }
  if (gpu.architecture != hardware::Architecture::hopper) {
    notes.push_back({core::NoteKind::assumed,
                     "kernel efficiencies measured on Hopper (H200 kernels, DeepSeek's H800 "
                     "trace) are taken as the same fractions of this GPU's peaks and HBM "
                     "bandwidth, and its GEMM tiles as Hopper's 128 x 128 (or x 64)"});
  }
  return notes;
}

}  // namespace codesim::workload
