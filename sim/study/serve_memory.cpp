// Serving's instances against their GPUs' HBM.
#include "sim/study/serve_memory.hpp"

#include <string>

#include "models/llm/analytics.hpp"
#include "sim/config/loader.hpp"
#include "sim/core/text.hpp"
#include "sim/study/inference.hpp"
#include "sim/study/scenario_inputs.hpp"
#include "sim/workload/training_state.hpp"

namespace codesim::study {

using config::Scenario;

namespace {

// What a GPU holds outside its tensors: the CUDA context and libraries, and DeepEP's buffers for
// `tokens` dispatched at once.
core::Bytes framework_of(const Scenario& s, int tokens) {
  return core::Bytes(workload::kFrameworkBytes) + ep_buffers_of(s, tokens);
}

}  // namespace

void refuse_prefill_over_memory(const Scenario& base, const Scenario& s, int per_micro_batch) {
  const int chunk = base.serve.chunk_tokens_per_gpu;
  const core::Bytes weights = weights_per_gpu(s);
  const core::Bytes activations = activations_at(s, {.tokens = per_micro_batch, .context = 1});
  const core::Bytes kv =
      llm::kv_cache_bytes_per_token(base.model.spec) * static_cast<double>(chunk);
  const core::Bytes hbm = s.hardware.spec.gpu.hbm_capacity;
  const core::Bytes framework = framework_of(s, per_micro_batch);
  if (weights + activations + kv + framework > hbm) {
    config::scenario_error(
        base, "serve.prefill.chunk_tokens_per_gpu",
        "a prefill GPU's weights (" + core::fixed(weights.value / 1e9, 1) + " GB), its chunk's " +
            core::fixed(activations.value / 1e9, 1) + " GB of activations and " +
            core::fixed(kv.value / 1e9, 1) + " GB of KV cache do not fit its " +
            core::fixed(hbm.value / 1e9, 0) + " GB with the framework's " +
            core::fixed(framework.value / 1e9, 1) + " GB",
        "smaller chunks (serve.prefill.chunk_tokens_per_gpu), or more GPUs per prefill instance");
  }
}

double decode_kv_tokens(const Scenario& base, const Scenario& decode, int per_micro_batch,
                        int gpus) {
  const auto& gpu = decode.hardware.spec.gpu;
  const core::Bytes weights = weights_per_gpu(decode);
  const core::Bytes activations = activations_at(decode, {.tokens = per_micro_batch, .context = 1});
  const core::Bytes framework = framework_of(decode, per_micro_batch);
  const core::Bytes free = gpu.hbm_capacity - weights - activations - framework;
  const double kv_per_token = llm::kv_cache_bytes_per_token(base.model.spec).value;
  if (weights >= gpu.hbm_capacity) {
    config::scenario_error(
        base, "serve.decode.nodes",
        "a decode GPU's weights (" + core::fixed(weights.value / 1e9, 1) +
            " GB) leave no room for KV cache in its " +
            core::fixed(gpu.hbm_capacity.value / 1e9, 0) + " GB",
        "spread the experts over more GPUs (serve.decode.nodes, serve.decode.ep)");
  }
  if (free.value <= 0) {
    config::scenario_error(
        base, "serve.decode.max_requests_per_gpu",
        "a decode GPU's weights (" + core::fixed(weights.value / 1e9, 1) + " GB), the " +
            core::fixed(activations.value / 1e9, 1) + " GB of activations of its batch of " +
            std::to_string(base.serve.max_requests_per_gpu) + " requests and the framework's " +
            core::fixed(framework.value / 1e9, 1) + " GB leave no room for KV cache in its " +
            core::fixed(gpu.hbm_capacity.value / 1e9, 0) + " GB",
        "batch fewer requests");
  }
  return free.value * base.serve.kv_memory_fraction * gpus / kv_per_token;
}

}  // namespace codesim::study
