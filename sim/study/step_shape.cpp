// Scenario -> StepShape.
#include "sim/study/step_shape.hpp"

namespace codesim::study {
namespace {

double bytes_of(config::StatePrecision p) {
  return p == config::StatePrecision::fp32 ? 4 : 2;
}

workload::TrainingPrecision training_precision(const workload::PrecisionSpec& p) {
  return {.master_weights = p.master_weights,
          .gradient_bytes = bytes_of(p.gradients),
          .moment_bytes = bytes_of(p.optimizer_states)};
}

}  // namespace

workload::StepShape training_shape(const config::Scenario& s) {
  const auto& pa = s.parallelism;
  return {.pp = pa.pp,
          .virtual_stages = s.schedule.virtual_stages,
          .dp = pa.dp,
          .tp = pa.tp,
          .cp = pa.cp,
          .ep = s.model.spec.moe ? pa.ep : 1,
          .sequence_parallel = pa.sp,
          .tp_overlap = pa.tp_overlap,
          .zero = pa.zero,
          .dp_overlap = pa.dp_overlap,
          .recompute = s.workload.recompute,
          .precision = training_precision(s.workload.precision),
          .attention = s.software.attention,
          .dropout = s.workload.dropout,
          .seq_len = s.workload.seq_len,
          .sequences_per_micro_batch = s.schedule.micro_batch_sequences,
          // The rules check that the global batch splits into dp x micro-batch sequences.
          .micro_batches =
              s.workload.global_batch_sequences / (pa.dp * s.schedule.micro_batch_sequences)};
}

workload::StepShape inference_shape(const config::Scenario& s) {
  const auto& in = s.inference;
  const int tp = s.parallelism.tp;
  const bool decode = s.workload.kind == config::WorkloadKind::decode;
  // The rules check that these split evenly (requests and whole prompts per micro-batch).
  const int tokens_per_group =
      (decode ? in.requests_per_gpu : in.prompt_tokens_per_gpu) * tp / in.micro_batches;
  const int seq_len = decode ? 1 : s.workload.seq_len;
  const int pp = s.parallelism.pp;
  return {.pp = pp,
          .dp = s.gpus() / (tp * pp),
          .tp = tp,
          .ep = s.model.spec.moe ? s.parallelism.ep : 1,
          .sequence_parallel = true,
          .seq_len = seq_len,
          .sequences_per_micro_batch = tokens_per_group / seq_len,
          .micro_batches = in.micro_batches};
}

}  // namespace codesim::study
