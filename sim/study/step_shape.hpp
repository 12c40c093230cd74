// A scenario's step shape (workload/step_shape.hpp), derived once: for a training step and for an
// inference step. Every per-GPU token count either study uses comes from these.
#pragma once

#include "sim/config/scenario.hpp"
#include "sim/workload/step_shape.hpp"

namespace codesim::study {

// pp x dp x tp x cp GPUs; micro-batches of schedule.micro_batch_sequences sequences of
// workload.seq_len tokens per data-parallel replica.
workload::StepShape training_shape(const config::Scenario& s);

// One inference step on gpus() GPUs: pp pipeline stages of the layers, in each attention in TP
// groups of parallelism.tp with sequence parallelism (dp = GPUs / (tp x pp)), the MoE in EP
// groups of parallelism.ep. A
// micro-batch of a TP group: decode, one token of each of its requests (seq_len 1, requests_per_gpu
// x tp / micro_batches sequences); prefill, whole prompts of workload.seq_len
// (prompt_tokens_per_gpu x tp / micro_batches tokens). tokens_per_gpu() is then what one GPU
// computes and dispatches per micro-batch.
workload::StepShape inference_shape(const config::Scenario& s);

}  // namespace codesim::study
