// Piece times from work, fitted efficiencies and measured other-kernel times.
#include "sim/workload/piece_model.hpp"

#include <stdexcept>

#include "models/hardware/catalog.hpp"
#include "sim/core/text.hpp"

namespace codesim::workload {
namespace {

double other_us(const PieceModel& pm, PieceId piece) {
  const auto it = pm.fit.piece_other_us.find(piece);
  return it == pm.fit.piece_other_us.end() ? 0.0 : it->second;
}

// Memory-bound kernels: the measured time scaled by the data they touch and the HBM bandwidth.
double other_seconds(const PieceModel& pm, const PieceContext& c, PieceId piece) {
  return other_us(pm, piece) * 1e-6 * (static_cast<double>(c.tokens) / pm.measured_tokens) *
         (static_cast<double>(c.model->hidden) / pm.measured_hidden) *
         (pm.measured_on.hbm_bandwidth / c.gpu.hbm_bandwidth);
}

}  // namespace

PieceModel deepseek_profile() {
  PieceModel pm;
  pm.measured_on = hardware::find_preset("h800")->gpu;
  pm.measured_tokens = 4096;
  pm.measured_hidden = 7168;
  pm.measured_comm_sms = 20;
  pm.fit.gemm_efficiency = 0.3873595;
  pm.fit.attention_forward_efficiency = 0.5617122;
  pm.fit.attention_backward_efficiency = 0.3266559;
  pm.fit.piece_other_us = {{{PieceKind::attention, Pass::backward}, 2726.25},
                           {{PieceKind::attention, Pass::forward}, 1413.0},
                           {{PieceKind::combine, Pass::backward}, 270.25},
                           {{PieceKind::mlp, Pass::backward}, 2105.5},
                           {{PieceKind::mlp, Pass::forward}, 1309.0},
                           {{PieceKind::mlp, Pass::weight}, 577.75}};
  return pm;
}

core::Seconds piece_time(const PieceModel& pm, const PieceContext& c, PieceId piece, int layer) {
  if (c.model == nullptr || c.tokens < 1) {
    throw std::invalid_argument("piece_time needs a model and a positive token count");
  }
  const PieceWork w = piece_work(*c.model, piece, c.tokens, !c.model->is_moe_layer(layer));
  const double sms = c.gpu.sms;
  const double share = (sms - c.held_sms) / (sms - pm.measured_comm_sms);
  const double gemm_peak = (c.fp8_gemm ? c.gpu.fp8_peak : c.gpu.bf16_peak).value;
  const double attention_efficiency = piece.pass == Pass::forward
                                          ? pm.fit.attention_forward_efficiency
                                          : pm.fit.attention_backward_efficiency;
  double seconds = w.gemm_flops / (gemm_peak * pm.fit.gemm_efficiency * share) +
                   w.bf16_gemm_flops / (c.gpu.bf16_peak.value * pm.fit.gemm_efficiency * share);
  if (w.attention_flops > 0) {
    seconds += w.attention_flops / (c.gpu.bf16_peak.value * attention_efficiency * share);
  }
  return core::Seconds(seconds + other_seconds(pm, c, piece));
}

core::Seconds piece_overhead(const PieceModel& pm, const PieceContext& c, PieceId piece) {
  return core::Seconds(other_seconds(pm, c, piece));
}

core::Note piece_model_note(const PieceModel& pm) {
  return {core::NoteKind::fitted,
          "compute piece times use GEMM and attention efficiencies (" +
              core::fixed(pm.fit.gemm_efficiency, 3) + ", " +
              core::fixed(pm.fit.attention_forward_efficiency, 3) + " forward, " +
              core::fixed(pm.fit.attention_backward_efficiency, 3) +
              " backward) and other-kernel times fitted to DeepSeek's H800 profile trace "
              "(models/calibration/deepseek-h800/train.json, sim/workload/piece_model.hpp)"};
}

}  // namespace codesim::workload
