// From a replayed step to the report's figures: step time, the first rank's breakdown, exposed
// communication, link loads, memory, and every rank's lanes for the timeline.
#pragma once

#include "models/hardware/hardware_spec.hpp"
#include "models/llm/llm_spec.hpp"
#include "sim/metrics/replayed_step.hpp"
#include "sim/metrics/run_result.hpp"
#include "sim/workload/software_stack.hpp"
#include "sim/workload/step_program.hpp"

namespace codesim::metrics {

// What the figures need beside the replay: the model, the GPU and the step's shape (the first
// rank's EP group is its GPUs 0 .. ep - 1).
struct StepFacts {
  const llm::LlmSpec* model = nullptr;
  hardware::GpuSpec gpu;
  workload::StepShape shape;
  workload::SoftwareStack stack = workload::SoftwareStack::fused;  // what the layers keep
  workload::OptimizerKernels optimizer = workload::OptimizerKernels::fused;
  core::Bytes ep_buffers;  // what the EP kernels hold on each GPU (workload::ep_buffer_bytes)
};

// What the report says of the activations' model.
core::Note activation_note(workload::SoftwareStack stack);

// Memory per GPU of a pipeline rank (the first unless given): its stages' parameters (BF16), FP32
// gradients, the ZeRO-1 shard of the optimizer state (FP32 master + BF16 moments), activations in
// flight. Needs no simulation: a run checks it before it starts.
metrics::MemoryUse memory_use(const workload::StepProgram& program, const StepFacts& facts,
                              int rank = 0);

// Tokens per step and per day, TFLOPS, MFU and HFU at r.step_time.
void throughput(metrics::RunResult& r, const StepFacts& facts);

metrics::RunResult measure_step(const workload::StepProgram& program, const ReplayedStep& step,
                                const StepFacts& facts);

}  // namespace codesim::metrics
