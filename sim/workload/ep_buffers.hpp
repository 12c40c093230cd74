// DeepEP's communication buffers on each GPU, sized as DeepEP sizes them (its legacy kernels,
// the ones DeepSeek-V3 trained and served with; docs/model/memory.md, "Beside the tensors").
#pragma once

#include "sim/core/units.hpp"
#include "sim/workload/ep_mode.hpp"

namespace codesim::workload {

struct EpBufferShape {
  EpMode mode = EpMode::direct;
  int ep = 1;               // GPUs of the expert-parallel group
  int hidden = 0;           // elements per token
  int experts = 0;          // routed experts of the model
  int comm_sms = 0;         // SMs the normal kernels run on, two per channel
  int tokens_per_rank = 0;  // the most tokens one GPU dispatches at once (low-latency buffers)
};

// The normal kernels' NVLink buffer and, past one node, their RDMA buffer: per channel and peer,
// the recommended configuration's receive queue of tokens (BF16 hidden, source metadata, up to
// 128 top-k indices and weights, 128 scales), the larger of dispatch's and combine's.
core::Bytes deepep_normal_buffer_bytes(int ep, int hidden, int comm_sms);

// The low-latency kernels' RDMA buffer: odd and even send and receive buffers, each as large as
// every expert's messages from `tokens_per_rank` tokens (combine's, BF16 with per-128 min/max,
// the larger), and their signal words.
core::Bytes deepep_low_latency_buffer_bytes(int tokens_per_rank, int hidden, int experts);

// What a GPU of this group holds for its EP kernels: DeepEP's buffers, none when tokens travel
// directly or there is no expert parallelism.
core::Bytes ep_buffer_bytes(const EpBufferShape& s);

}  // namespace codesim::workload
