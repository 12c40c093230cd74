// JSON and terminal writers of an inference step.
#include "sim/report/inference_report.hpp"

#include "sim/report/energy_report.hpp"
#include "sim/report/format.hpp"
#include "sim/report/labels.hpp"
#include "sim/report/schema_version.hpp"

namespace codesim::report {

nlohmann::ordered_json inference_json(const metrics::InferenceResult& r) {
  nlohmann::ordered_json j;
  j["schema_version"] = kSchemaVersion;
  j["scenario"] = r.scenario;
  j["phase"] = metrics::inference_phase_name(r.phase);
  j["mode"] = metrics::inference_mode_name(r.mode);
  j["gpus"] = r.gpus;
  j["ep"] = r.ep;
  j["tp"] = r.tp;
  j["pp"] = r.pp;
  j["micro_batches"] = r.micro_batches;
  j["tokens_per_micro_batch"] = r.tokens_per_micro_batch;
  j["context_len"] = r.context_len;
  j["step_time_ms"] = r.step_time.value * 1e3;
  j["tpot_ms"] = r.tpot.value * 1e3;
  j["tpot_without_mtp_ms"] = r.tpot_without_mtp.value * 1e3;
  j["ttft_ms"] = r.ttft.value * 1e3;
  j["tokens_per_s_per_gpu"] = r.tokens_per_s_per_gpu;
  j["tokens_per_s_per_node"] = r.tokens_per_s_per_node;
  j["tokens_per_s_per_request"] = r.tokens_per_s_per_request;
  j["per_layer_us"] = {{"attention", r.attention.value * 1e6},
                       {"dense_mlp", r.dense_mlp.value * 1e6},
                       {"moe", r.moe.value * 1e6},
                       {"dispatch", r.dispatch.value * 1e6},
                       {"combine", r.combine.value * 1e6}};
  j["compute_busy"] = r.compute_busy;
  j["comm_busy"] = r.comm_busy;
  j["bound_by"] = r.bound_by;
  j["memory_gb_per_gpu"] = {{"weights", r.weights_per_gpu.value / 1e9},
                            {"kv_cache", r.kv_cache_per_gpu.value / 1e9},
                            {"activations", r.activations_per_gpu.value / 1e9},
                            {"framework", r.framework.value / 1e9},
                            {"ep_buffers", r.ep_buffers.value / 1e9},
                            {"capacity", r.hbm.value / 1e9}};
  j["activations_peak"] = r.activations_peak;
  j["largest_batch"] = r.largest_batch;
  if (r.energy) {
    j["energy"] = energy_json(*r.energy);
  }
  j["notes"] = notes_json(r.notes);
  return j;
}

std::string inference_table(const metrics::InferenceResult& r) {
  std::string out =
      r.scenario + " (" + std::string(metrics::inference_phase_name(r.phase)) + ", " +
      std::string(metrics::inference_mode_name(r.mode)) + "): " + std::to_string(r.gpus) +
      " GPUs, EP" + std::to_string(r.ep) + ", attention TP" + std::to_string(r.tp) +
      (r.pp > 1 ? ", PP" + std::to_string(r.pp) : std::string()) + ", " +
      std::to_string(r.micro_batches) + " micro-batches of " +
      std::to_string(r.tokens_per_micro_batch) +
      (r.phase == metrics::InferencePhase::decode ? " requests" : " tokens") + " per GPU\n";
  if (r.phase == metrics::InferencePhase::decode) {
    out += "TPOT " + fixed(r.tpot.value * 1e3, 2) + " ms (" + fixed(r.tokens_per_s_per_request, 1) +
           " tokens/s per request";
    out += r.tpot != r.tpot_without_mtp
               ? "; " + fixed(r.tpot_without_mtp.value * 1e3, 2) + " ms without MTP)\n"
               : ")\n";
    out += "output " + fixed(r.tokens_per_s_per_gpu, 0) + " tokens/s per GPU, " +
           fixed(r.tokens_per_s_per_node, 0) + " per node\n";
  } else {
    out += "TTFT " + fixed(r.ttft.value * 1e3, 1) + " ms; prefill " +
           fixed(r.tokens_per_s_per_gpu, 0) + " tokens/s per GPU, " +
           fixed(r.tokens_per_s_per_node, 0) + " per node\n";
  }
  const auto us = [](core::Seconds t) { return fixed(t.value * 1e6, 1) + " us"; };
  out += "per layer and micro-batch: attention " + us(r.attention);
  if (r.moe.value > 0) {
    out += ", MoE " + us(r.moe);
    if (r.dispatch.value > 0 || r.combine.value > 0) {
      out += ", dispatch " + us(r.dispatch) + ", combine " + us(r.combine);
    }
    out += " (dense FFN " + us(r.dense_mlp) + ")\n";
  } else {
    out += ", FFN " + us(r.dense_mlp) + "\n";
  }
  out += "bound by " + r.bound_by + "; compute busy " + fixed(100 * r.compute_busy, 0) +
         "% of the step, communication " + fixed(100 * r.comm_busy, 0) + "%\n";
  out += "memory per GPU: weights " + fixed(r.weights_per_gpu.value / 1e9, 1) + " GB, KV cache " +
         fixed(r.kv_cache_per_gpu.value / 1e9, 1) + " GB, activations " +
         (r.activations_per_gpu.value < 1e9 ? fixed(r.activations_per_gpu.value / 1e6, 0) + " MB"
                                            : fixed(r.activations_per_gpu.value / 1e9, 1) + " GB") +
         " (at the " + r.activations_peak + "), framework " + fixed(r.framework.value / 1e9, 1) +
         (r.ep_buffers.value > 0 ? " GB, DeepEP's buffers " + fixed(r.ep_buffers.value / 1e9, 1)
                                 : std::string()) +
         " GB of " + fixed(r.hbm.value / 1e9, 0) + " GB; at most " +
         std::to_string(r.largest_batch) +
         (r.phase == metrics::InferencePhase::decode ? " requests" : " prompt tokens") +
         " per GPU fit at this context\n";
  if (r.energy) {
    out += energy_line(*r.energy) + "\n";
  }
  for (const auto& n : r.notes) {
    out += "note: " + note_line(n) + "\n";
  }
  return out;
}

}  // namespace codesim::report
