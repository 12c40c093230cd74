// What serving's instances hold in HBM (docs/model/memory.md, "Inference"): a prefill GPU its
// weights, its chunk's activations and the chunk's KV cache until it is sent; a decode GPU its
// weights, its largest batch's activations and the framework, a fraction of the rest KV cache.
#pragma once

#include "sim/config/scenario.hpp"

namespace codesim::study {

// Refuses, at serve.prefill.chunk_tokens_per_gpu, a prefill GPU (`prefill`: the instance's
// scenario) whose weights, chunk (`per_micro_batch` tokens in each micro-batch) and the
// framework exceed its HBM.
void refuse_prefill_over_memory(const config::Scenario& base, const config::Scenario& prefill,
                                int per_micro_batch);

// The KV-cache tokens a decode instance of `gpus` GPUs holds: each GPU's HBM left after its
// weights, the activations of its largest batch (`per_micro_batch` requests in each
// micro-batch) and the framework, serve.decode.kv_memory_fraction of it, over the model's KV
// bytes per token (every layer). Refuses an instance left no room.
double decode_kv_tokens(const config::Scenario& base, const config::Scenario& decode,
                        int per_micro_batch, int gpus);

}  // namespace codesim::study
