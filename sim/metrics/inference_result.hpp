// What a simulated prefill or decode step gives. Plain data; sim/study fills it, sim/report
// writes it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/core/note.hpp"
#include "sim/core/units.hpp"
#include "sim/metrics/step_energy.hpp"
#include "sim/workload/inference_kind.hpp"

namespace codesim::metrics {

using workload::inference_mode_name;   // "model", "bound" (ISCA 2.3.2)
using workload::inference_phase_name;  // "prefill", "decode"
using workload::InferenceMode;
using workload::InferencePhase;

struct InferenceResult {
  std::string scenario;
  InferencePhase phase = InferencePhase::decode;
  InferenceMode mode = InferenceMode::model;
  int gpus = 0;
  int gpus_per_node = 0;
  int ep = 0;
  int tp = 0;
  int pp = 1;  // pipeline stages (a request's token passes each in turn)
  int micro_batches = 0;
  int tokens_per_micro_batch = 0;  // per GPU: requests (decode) or prompt tokens (prefill)
  int context_len = 0;
  core::Seconds step_time;  // one pass of every micro-batch through every layer
  core::Seconds tpot;       // decode: per output token of a request, MTP applied
  core::Seconds tpot_without_mtp;
  core::Seconds ttft;               // prefill: a prompt's first token (its batch's pass)
  double tokens_per_s_per_gpu = 0;  // decode: output tokens; prefill: prompt tokens
  double tokens_per_s_per_node = 0;
  double tokens_per_s_per_request = 0;  // decode: 1 / TPOT
  // Per layer and micro-batch on one GPU.
  core::Seconds attention;
  core::Seconds dense_mlp;
  core::Seconds moe;
  core::Seconds dispatch;
  core::Seconds combine;
  double compute_busy = 0;  // share of the step the compute stream works
  double comm_busy = 0;     // share of the step the communication stream works
  std::string bound_by;     // what limits the step, in words
  core::Bytes weights_per_gpu;
  core::Bytes kv_cache_per_gpu;
  // What the step allocates beside them at its peak (every micro-batch's), and where that is.
  core::Bytes activations_per_gpu;
  std::string activations_peak;
  core::Bytes framework;   // the CUDA context and the libraries' handles (measured on the H200)
  core::Bytes ep_buffers;  // DeepEP's buffers where its kernels carry the EP tokens
  core::Bytes hbm;
  // The most requests (decode) or prompt tokens (prefill) per GPU whose KV cache at this context
  // and activations fit beside the weights.
  long long largest_batch = 0;
  // The step's energy and the GPUs' governed clock; absent for a GPU without a power model and in
  // bound mode.
  std::optional<StepEnergy> energy;
  std::vector<core::Note> notes;
};

}  // namespace codesim::metrics
