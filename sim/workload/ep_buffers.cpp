// DeepEP's buffer sizes, as its legacy kernels compute them (docs/model/memory.md, "Beside the
// tensors": DeepEP's Config::get_nvl_buffer_size_hint, get_rdma_buffer_size_hint and
// LowLatencyLayout, and its recommended configurations by group size).
#include "sim/workload/ep_buffers.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

namespace codesim::workload {
namespace {

constexpr std::int64_t kNvlPeers = 8;     // GPUs one node's NVLink buffer spans
constexpr std::int64_t kMaxTopK = 128;    // top-k slots a queued token carries room for
constexpr std::int64_t kMaxScales = 128;  // FP8 scales likewise
constexpr std::int64_t kSourceMeta = 8;   // a token's source rank and NVLink bits
constexpr std::int64_t kTopKIndex = 8;    // 64-bit top-k indices
constexpr std::int64_t kAlignment = 128;

// The recommended queue lengths (receive tokens per channel and peer over NVLink; send and receive
// over RDMA) for a group of `ranks`, of dispatch and combine alike except RDMA's send chunk.
struct Queues {
  int ranks;
  std::int64_t nvl_recv;
  std::int64_t rdma_send_dispatch;
  std::int64_t rdma_send_combine;
  std::int64_t rdma_recv;
};
constexpr std::array kQueues = {
    Queues{2, 256, 6, 6, 128},    Queues{4, 256, 6, 6, 128},    Queues{8, 256, 6, 6, 128},
    Queues{16, 288, 20, 12, 128}, Queues{24, 288, 8, 8, 128},   Queues{32, 288, 8, 8, 128},
    Queues{48, 288, 8, 8, 128},   Queues{64, 288, 8, 8, 128},   Queues{96, 480, 12, 8, 128},
    Queues{128, 560, 12, 8, 128}, Queues{144, 720, 12, 8, 128}, Queues{160, 720, 12, 8, 128},
};

// The listed group at or above `ranks` (DeepEP lists these only), else the largest.
const Queues& queues_for(int ranks) {
  for (const Queues& q : kQueues) {
    if (q.ranks >= ranks) {
      return q;
    }
  }
  return kQueues.back();
}

constexpr std::int64_t align_up(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b * b;
}

// A queued token's bytes beside its hidden state: metadata, top-k indices and weights, scales.
constexpr std::int64_t kTokenExtras =
    kSourceMeta + kMaxTopK * kTopKIndex + kMaxTopK * 4 + kMaxScales * 4;

}  // namespace

core::Bytes deepep_normal_buffer_bytes(int ep, int hidden, int comm_sms) {
  const std::int64_t ranks = ep;
  const std::int64_t channels = comm_sms / 2;
  const std::int64_t rdma_ranks = std::max<std::int64_t>(ranks / kNvlPeers, 1);
  const std::int64_t nvl_ranks = std::min(ranks, kNvlPeers);
  const std::int64_t hidden_bytes = 2LL * hidden;  // BF16, the larger of the two directions
  const Queues& q = queues_for(ep);
  const std::int64_t nvl = channels * nvl_ranks * (2 * rdma_ranks + 3) * 4 +
                           channels * nvl_ranks * q.nvl_recv * (hidden_bytes + kTokenExtras);
  std::int64_t rdma = 0;
  if (ranks > kNvlPeers) {
    // The receive queue rounds up to whole send chunks; dispatch's chunk gives the longer one.
    const std::int64_t recv = std::max(align_up(q.rdma_recv, q.rdma_send_dispatch),
                                       align_up(q.rdma_recv, q.rdma_send_combine));
    rdma = channels * rdma_ranks * (kNvlPeers * 2 + 2) * 2 * 4 +
           channels * rdma_ranks * recv * (hidden_bytes + kTokenExtras + 16) * 2;
  }
  return core::Bytes(static_cast<double>(align_up(nvl, kAlignment) + align_up(rdma, kAlignment)));
}

core::Bytes deepep_low_latency_buffer_bytes(int tokens_per_rank, int hidden, int experts) {
  const std::int64_t scales = hidden / 128;
  const std::int64_t dispatch_message =
      16 + std::max<std::int64_t>(2LL * hidden, hidden + scales * 4);
  const std::int64_t combine_message = scales * 4 + 2LL * hidden;
  const std::int64_t tokens = tokens_per_rank;
  const std::int64_t send = std::max(tokens * dispatch_message, experts * tokens * combine_message);
  const std::int64_t recv = experts * tokens * std::max(dispatch_message, combine_message);
  const std::int64_t signals = align_up(experts * 4LL, kAlignment);
  const std::int64_t total = 2 * send + 2 * recv + 2 * signals;
  // DeepEP rounds the whole up past the next alignment boundary.
  return core::Bytes(static_cast<double>((total + kAlignment) / kAlignment * kAlignment));
}

core::Bytes ep_buffer_bytes(const EpBufferShape& s) {
  if (s.ep <= 1 || s.experts <= 0) {
    return core::Bytes(0);
  }
  switch (s.mode) {
    case EpMode::deepep_normal:
      return deepep_normal_buffer_bytes(s.ep, s.hidden, s.comm_sms);
    case EpMode::deepep_low_latency:
    case EpMode::deepep_low_latency_nvlink:
      return deepep_low_latency_buffer_bytes(s.tokens_per_rank, s.hidden, s.experts);
    case EpMode::direct:
      break;
  }
  return core::Bytes(0);
}

}  // namespace codesim::workload
