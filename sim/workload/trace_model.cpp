// Piece work from the model's op tables; the trace against the kernel model; predicted times.
#include "sim/workload/trace_model.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "models/llm/layer_ops.hpp"
#include "sim/workload/replay.hpp"

namespace codesim::workload {
namespace {

bool is_gemm(cost::KernelClass c) {
  return c == cost::KernelClass::gemm || c == cost::KernelClass::grouped_gemm;
}
bool is_attention(cost::KernelClass c) {
  return c == cost::KernelClass::attention_forward || c == cost::KernelClass::attention_backward;
}

// A piece instance: the ops of one piece in one layer (none for ops outside known pieces).
using Instance = std::pair<PieceId, int>;
std::optional<Instance> instance_of(const Op& op) {
  if (!op.measured_us) {
    return std::nullopt;
  }
  const auto piece = parse_piece(op.tags.piece);
  if (!piece) {
    return std::nullopt;
  }
  return Instance{*piece, op.tags.layer};
}

// Measured time of each class within each piece instance.
struct Measured {
  double gemm = 0, attention = 0, other = 0;
};
std::map<Instance, Measured> measured_by_instance(const StepTrace& t) {
  std::map<Instance, Measured> out;
  for (const Op& op : t.ops) {
    const auto instance = instance_of(op);
    if (!instance) {
      continue;
    }
    Measured& m = out[*instance];
    if (is_gemm(op.op_class)) {
      m.gemm += *op.measured_us;
    } else if (is_attention(op.op_class)) {
      m.attention += *op.measured_us;
    } else if (op.kind == OpKind::compute && op.op_class != cost::KernelClass::communication) {
      m.other += *op.measured_us;
    }
  }
  return out;
}

// The trace's layers are MoE layers when the model has experts (DeepSeek's profile).
PieceCost predicted(const TraceSetting& s, const hardware::GpuSpec& gpu, PieceId piece,
                    const KernelParams& p) {
  return price(piece_kernels(*s.model, piece, s.kernels, llm::kMoeLayer), gpu,
               gpu.sms - s.held_sms, p);
}

// Each traced piece's kernels, listed once (the fit prices them again at every iteration).
using PieceKernels = std::map<PieceId, std::vector<PieceKernel>>;
PieceKernels kernels_of(const TraceSetting& s, const std::map<Instance, Measured>& instances) {
  PieceKernels out;
  for (const auto& [instance, measured] : instances) {
    if (!out.contains(instance.first)) {
      out[instance.first] = piece_kernels(*s.model, instance.first, s.kernels, llm::kMoeLayer);
    }
  }
  return out;
}

bool runs_grouped(const std::vector<PieceKernel>& kernels) {
  return std::ranges::any_of(kernels, [](const PieceKernel& k) {
    return k.shape.kind == cost::KernelClass::grouped_gemm;
  });
}

// GEMM time of the pieces without grouped GEMMs and of those with them (measured, or predicted
// with the predicted plain GEMMs' part of the latter).
struct GemmSums {
  double plain_pieces = 0;
  double grouped_pieces = 0;
  double plain_in_grouped_pieces = 0;  // predicted only
};

// Sums over the trace's piece instances: GEMMs of the F and B pieces and of the W pieces, and
// other time, predicted (with `p`) or measured (without).
struct Totals {
  GemmSums forward_backward, weight;
  double other = 0;
};
Totals totals(const TraceSetting& s, const std::map<Instance, Measured>& instances,
              const PieceKernels& kernels, const KernelParams* p) {
  Totals t;
  for (const auto& [instance, measured] : instances) {
    const std::vector<PieceKernel>& ks = kernels.at(instance.first);
    double gemm = measured.gemm;
    double plain = 0;
    double other = measured.other;
    if (p != nullptr) {
      const PieceCost c = price(ks, s.gpu, s.gpu.sms - s.held_sms, *p);
      gemm = c.gemm.value * 1e6;
      plain = (c.gemm - c.grouped).value * 1e6;
      other = c.memory.value * 1e6;
    }
    GemmSums& g = instance.first.pass == Pass::weight ? t.weight : t.forward_backward;
    if (runs_grouped(ks)) {
      g.grouped_pieces += gemm;
      g.plain_in_grouped_pieces += plain;
    } else {
      g.plain_pieces += gemm;
    }
    t.other += other;
  }
  return t;
}

}  // namespace

PieceWork piece_work(const llm::LlmSpec& m, PieceId piece, int tokens,
                     const llm::LayerKind& layer) {
  PieceWork w;
  for (const auto& op : piece_ops(m, piece, tokens, layer)) {
    const double f = piece.pass == Pass::forward    ? op.forward.value
                     : piece.pass == Pass::backward ? op.backward_input.value
                     : piece.pass == Pass::weight   ? op.backward_weight.value
                                                    : 0.0;
    if (op.op_class == llm::OpClass::attention) {
      w.attention_flops += f;
    } else if (!llm::counts_as_model_flops(op.op_class)) {
      continue;
    } else if (piece.kind == PieceKind::head && !op.routed_expert()) {
      w.bf16_gemm_flops += f;
    } else {
      w.gemm_flops += f;
    }
  }
  return w;
}

KernelParams with_trace_scales(KernelParams p, const TraceFit& fit) {
  p.kernel.fp8_compute_scale *= fit.fp8_gemm_scale;
  p.kernel.fp8_grouped_compute_scale *= fit.fp8_grouped_scale;
  p.fp8_wgrad_scale *= fit.fp8_wgrad_scale;
  p.fp8_grouped_wgrad_scale *= fit.fp8_grouped_wgrad_scale;
  p.kernel.norm_efficiency *= fit.memory_scale;
  p.kernel.elementwise_efficiency *= fit.memory_scale;
  p.kernel.quantize_efficiency *= fit.memory_scale;
  return p;
}

TraceFit fit_trace(const StepTrace& t, const TraceSetting& s) {
  const auto instances = measured_by_instance(t);
  const PieceKernels kernels = kernels_of(s, instances);
  const Totals measured = totals(s, instances, kernels, nullptr);
  const GemmSums& mf = measured.forward_backward;
  const GemmSums& mw = measured.weight;
  if (mf.plain_pieces + mf.grouped_pieces + mw.plain_pieces + mw.grouped_pieces <= 0) {
    throw std::invalid_argument("the trace has no GEMM kernels inside pieces to fit");
  }
  TraceFit fit;
  // Each scale moves its class's predicted total toward the measured one; a kernel's time is
  // not proportional to its efficiency (fixed costs, memory bounds), so iterate to a fixed point.
  auto ratio = [](double predicted, double measured_total) {
    return predicted > 0 && measured_total > 0 ? predicted / measured_total : 1.0;
  };
  // Plain GEMMs from the pieces that run only those; grouped ones from the rest of the MoE
  // pieces' GEMM time once their plain GEMMs are priced.
  auto grouped_ratio = [&](const GemmSums& predicted, const GemmSums& m) {
    return ratio(predicted.grouped_pieces - predicted.plain_in_grouped_pieces,
                 m.grouped_pieces - predicted.plain_in_grouped_pieces);
  };
  for (int i = 0; i < 200; ++i) {
    const KernelParams scaled = with_trace_scales(s.params, fit);
    const Totals p = totals(s, instances, kernels, &scaled);
    const double r[5] = {ratio(p.forward_backward.plain_pieces, mf.plain_pieces),
                         ratio(p.weight.plain_pieces, mw.plain_pieces),
                         grouped_ratio(p.forward_backward, mf), grouped_ratio(p.weight, mw),
                         ratio(p.other, measured.other)};
    fit.fp8_gemm_scale *= r[0];
    fit.fp8_wgrad_scale *= r[1];
    fit.fp8_grouped_scale *= r[2];
    fit.fp8_grouped_wgrad_scale *= r[3];
    fit.memory_scale *= r[4];
    double moved = 0;
    for (const double x : r) {
      moved += std::fabs(x - 1);
    }
    if (moved < 1e-10) {
      break;
    }
  }
  const KernelParams scaled = with_trace_scales(s.params, fit);
  for (const auto& [instance, m] : instances) {
    PieceComparison& c = fit.pieces[instance.first];
    const PieceCost p =
        price(kernels.at(instance.first), s.gpu, s.gpu.sms - s.held_sms, scaled);
    ++c.instances;
    c.measured_gemm_us += m.gemm;
    c.measured_attention_us += m.attention;
    c.measured_other_us += m.other;
    c.predicted_gemm_us += p.gemm.value * 1e6;
    c.predicted_attention_us += p.attention.value * 1e6;
    c.predicted_other_us += p.memory.value * 1e6;
  }
  std::erase_if(fit.pieces, [](const auto& entry) {
    return entry.second.measured_us() <= 0 && entry.second.predicted_us() <= 0;
  });
  for (auto& [piece, c] : fit.pieces) {
    const double n = c.instances;
    for (double* v : {&c.measured_gemm_us, &c.predicted_gemm_us, &c.measured_attention_us,
                      &c.predicted_attention_us, &c.measured_other_us, &c.predicted_other_us}) {
      *v /= n;
    }
  }
  return fit;
}

std::vector<double> predicted_durations(const StepTrace& t, const TraceSetting& s,
                                        const hardware::GpuSpec& target, const KernelParams& p) {
  std::vector<double> out = scaled_durations(t, s.gpu, target);
  const auto instances = measured_by_instance(t);
  std::map<Instance, PieceCost> costs;
  for (const auto& [instance, m] : instances) {
    costs[instance] = predicted(s, target, instance.first, p);
  }
  for (std::size_t i = 0; i < t.ops.size(); ++i) {
    const Op& op = t.ops[i];
    const auto instance = instance_of(op);
    if (!instance || op.kind != OpKind::compute ||
        op.op_class == cost::KernelClass::communication) {
      continue;
    }
    const Measured& m = instances.at(*instance);
    const PieceCost& c = costs.at(*instance);
    const double share_of = [&] {
      if (is_gemm(op.op_class)) {
        return m.gemm > 0 ? c.gemm.value * 1e6 / m.gemm : 0.0;
      }
      if (is_attention(op.op_class)) {
        return m.attention > 0 ? c.attention.value * 1e6 / m.attention : 0.0;
      }
      return m.other > 0 ? c.memory.value * 1e6 / m.other : 0.0;
    }();
    // A class the model has no kernel for keeps its roofline-scaled time.
    if (share_of > 0) {
      out[i] = *op.measured_us * share_of;
    }
  }
  return out;
}

}  // namespace codesim::workload
