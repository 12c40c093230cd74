// Piece work from the model's op tables; efficiency fit; predicted kernel times.
#include "sim/workload/trace_model.hpp"

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

}  // namespace

PieceWork piece_work(const llm::LlmSpec& m, PieceId piece, int tokens, bool dense_layer) {
  const llm::OpShape shape{.seq_len = tokens, .micro_batch = 1, .causal = true};
  std::vector<llm::LayerOp> ops;
  if (piece.kind == PieceKind::attention) {
    ops = llm::attention_ops(m, shape);
    if (m.moe && !dense_layer) {
      for (const auto& op : llm::moe_ops(m, shape)) {
        if (op.name == "router") {
          ops.push_back(op);
        }
      }
    }
  } else if (piece.kind == PieceKind::mlp && (dense_layer || !m.moe)) {
    ops = llm::dense_ffn_ops(m, shape);
  } else if (piece.kind == PieceKind::mlp) {
    for (const auto& op : llm::moe_ops(m, shape)) {
      if (op.name != "router") {
        ops.push_back(op);
      }
    }
  } else if (piece.kind == PieceKind::head) {
    for (const auto& block : llm::model_blocks(m, shape)) {
      if (block.kind == "head" || block.kind == "mtp") {
        ops.insert(ops.end(), block.ops.begin(), block.ops.end());
      }
    }
  }
  PieceWork w;
  for (const auto& op : ops) {
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

TraceFit fit_trace(const StepTrace& t, const llm::LlmSpec& m, int tokens,
                   const hardware::GpuSpec& gpu) {
  std::map<Instance, bool> instances;
  std::map<PieceId, double> gemm_time_by_piece;
  std::map<PieceId, double> other_time_by_piece;
  double gemm_time = 0;
  double attention_forward_time = 0;
  double attention_backward_time = 0;
  for (const Op& op : t.ops) {
    const auto instance = instance_of(op);
    if (!instance) {
      continue;
    }
    instances[*instance] = true;
    const PieceId piece = instance->first;
    if (is_gemm(op.op_class)) {
      gemm_time += *op.measured_us;
      gemm_time_by_piece[piece] += *op.measured_us;
    } else if (op.op_class == cost::KernelClass::attention_forward) {
      attention_forward_time += *op.measured_us;
    } else if (op.op_class == cost::KernelClass::attention_backward) {
      attention_backward_time += *op.measured_us;
    } else if (op.kind == OpKind::compute && op.op_class != cost::KernelClass::communication) {
      other_time_by_piece[piece] += *op.measured_us;
    }
  }
  double gemm_flops = 0;
  double attention_forward_flops = 0;
  double attention_backward_flops = 0;
  std::map<PieceId, double> gemm_flops_by_piece;
  for (const auto& [instance, present] : instances) {
    const PieceWork w = piece_work(m, instance.first, tokens);
    gemm_flops += w.gemm_flops;
    gemm_flops_by_piece[instance.first] += w.gemm_flops;
    (instance.first.pass == Pass::forward ? attention_forward_flops : attention_backward_flops) +=
        w.attention_flops;
  }
  const double fp8 = gpu.fp8_peak.value * 1e-6;  // FLOP per microsecond
  const double bf16 = gpu.bf16_peak.value * 1e-6;
  TraceFit fit;
  if (gemm_time <= 0) {
    throw std::invalid_argument("the trace has no GEMM kernels inside pieces to fit");
  }
  fit.gemm_efficiency = gemm_flops / (gemm_time * fp8);
  fit.attention_forward_efficiency =
      attention_forward_time > 0 ? attention_forward_flops / (attention_forward_time * bf16) : 0;
  fit.attention_backward_efficiency =
      attention_backward_time > 0 ? attention_backward_flops / (attention_backward_time * bf16) : 0;
  for (const auto& [piece, time] : gemm_time_by_piece) {
    fit.piece_gemm_efficiency[piece] = gemm_flops_by_piece[piece] / (time * fp8);
  }
  std::map<PieceId, int> instances_of_piece;
  for (const auto& [instance, present] : instances) {
    ++instances_of_piece[instance.first];
  }
  for (const auto& [piece, time] : other_time_by_piece) {
    fit.piece_other_us[piece] = time / instances_of_piece[piece];
  }
  return fit;
}

std::vector<double> predicted_durations(const StepTrace& t, const llm::LlmSpec& m, int tokens,
                                        const TraceFit& fit, const hardware::GpuSpec& from,
                                        const hardware::GpuSpec& to) {
  std::vector<double> out = scaled_durations(t, from, to);
  // Measured time of each class within each piece instance: the shares the prediction is split by.
  std::map<Instance, double> gemm_measured;
  std::map<Instance, double> attention_measured;
  for (const Op& op : t.ops) {
    const auto instance = instance_of(op);
    if (!instance) {
      continue;
    }
    if (is_gemm(op.op_class)) {
      gemm_measured[*instance] += *op.measured_us;
    } else if (is_attention(op.op_class)) {
      attention_measured[*instance] += *op.measured_us;
    }
  }
  const double fp8 = to.fp8_peak.value * 1e-6;
  const double bf16 = to.bf16_peak.value * 1e-6;
  for (std::size_t i = 0; i < t.ops.size(); ++i) {
    const Op& op = t.ops[i];
    const auto instance = instance_of(op);
    if (!instance) {
      continue;
    }
    const PieceWork w = piece_work(m, instance->first, tokens);
    if (is_gemm(op.op_class) && w.gemm_flops > 0) {
      const double piece_time = w.gemm_flops / (fp8 * fit.gemm_efficiency);
      out[i] = piece_time * *op.measured_us / gemm_measured[*instance];
    } else if (is_attention(op.op_class) && w.attention_flops > 0) {
      const double e = op.op_class == cost::KernelClass::attention_forward
                           ? fit.attention_forward_efficiency
                           : fit.attention_backward_efficiency;
      const double piece_time = w.attention_flops / (bf16 * e);
      out[i] = piece_time * *op.measured_us / attention_measured[*instance];
    }
  }
  return out;
}

}  // namespace codesim::workload
