// DeepEP's buffers as its legacy kernels size them (docs/model/memory.md, "Beside the tensors").
#include "sim/workload/ep_buffers.hpp"

#include <gtest/gtest.h>

namespace codesim::workload {
namespace {

// A queued token beside its BF16 hidden state: 8 bytes of source metadata, 128 top-k slots of
// 8-byte indices and 4-byte weights, 128 4-byte scales: 2056 bytes.
constexpr double kExtras = 8 + 128 * 8 + 128 * 4 + 128 * 4;

TEST(EpBuffers, NormalKernelsAcrossNodesAsDeepSeekV3Trained) {
  // EP64 over 8 nodes, hidden 7168, 20 SMs: 10 channels, 8 NVLink peers, 8 RDMA peers; the
  // recommended queues for 64 ranks: 288 tokens per channel and peer over NVLink, 128 over RDMA
  // (already a multiple of the send chunk, 8).
  // NVLink: 10 x 8 x (2 x 8 + 3) x 4 of counters + 10 x 8 x 288 x (14336 + 2056), rounded up to
  // 128 bytes: 377,677,824. RDMA, send and receive sides (x 2): 10 x 8 x 18 x 2 x 4 +
  // 10 x 8 x 128 x (14336 + 2056 + 16) x 2 = 336,047,360. Together 0.714 GB.
  const double nvl = 10.0 * 8 * 19 * 4 + 10.0 * 8 * 288 * (14336 + kExtras);
  EXPECT_DOUBLE_EQ(nvl, 377677760.0);
  EXPECT_DOUBLE_EQ(deepep_normal_buffer_bytes(64, 7168, 20).value, 377677824.0 + 336047360.0);
  EXPECT_DOUBLE_EQ(
      ep_buffer_bytes(
          {.mode = EpMode::deepep_normal, .ep = 64, .hidden = 7168, .experts = 256, .comm_sms = 20})
          .value,
      377677824.0 + 336047360.0);
}

TEST(EpBuffers, NormalKernelsInsideANodeNeedNoRdmaBuffer) {
  // EP8, hidden 4096, 24 SMs: 12 channels x 8 peers x (2 x 1 + 3) x 4 + 12 x 8 x 256 x
  // (8192 + 2056) = 251,660,160 bytes, already a multiple of 128.
  EXPECT_DOUBLE_EQ(deepep_normal_buffer_bytes(8, 4096, 24).value,
                   12.0 * 8 * 5 * 4 + 12.0 * 8 * 256 * (8192 + kExtras));
  // A group DeepEP does not list takes the next listed size's queues (20 -> 24: 288 over
  // NVLink, 128 over RDMA). One channel (2 SMs), 8 NVLink peers, 2 RDMA peers: NVLink
  // 8 x (2 x 2 + 3) x 4 + 8 x 288 x (8192 + 2056) = 23,611,616 -> 23,611,648; RDMA 2 x 18 x 2 x 4
  // + 2 x 128 x (8192 + 2056 + 16) x 2 = 5,255,456 -> 5,255,552.
  EXPECT_DOUBLE_EQ(deepep_normal_buffer_bytes(20, 4096, 2).value, 23611648.0 + 5255552.0);
}

TEST(EpBuffers, LowLatencyKernelsHoldEveryExpertsMessages) {
  // DeepSeek-V3 decode, 128 tokens per GPU, 256 experts, hidden 7168 (56 scales): a dispatch
  // message 16 + 14336 bytes, a combine one 56 x 4 + 14336 = 14560. Send and receive buffers
  // each 256 x 128 x 14560 = 477,102,080 bytes, twice each (odd and even), and two 1024-byte
  // signal arrays: 1,908,410,368, which DeepEP rounds up past the next 128: 1,908,410,496.
  EXPECT_DOUBLE_EQ(deepep_low_latency_buffer_bytes(128, 7168, 256).value, 1908410496.0);
  EXPECT_DOUBLE_EQ(ep_buffer_bytes({.mode = EpMode::deepep_low_latency_nvlink,
                                    .ep = 32,
                                    .hidden = 7168,
                                    .experts = 256,
                                    .tokens_per_rank = 128})
                       .value,
                   1908410496.0);
}

TEST(EpBuffers, NoneWithoutDeepEpOrExpertParallelism) {
  EXPECT_EQ(
      ep_buffer_bytes({.mode = EpMode::direct, .ep = 64, .hidden = 7168, .experts = 256}).value,
      0.0);
  EXPECT_EQ(
      ep_buffer_bytes(
          {.mode = EpMode::deepep_normal, .ep = 1, .hidden = 7168, .experts = 256, .comm_sms = 20})
          .value,
      0.0);
  EXPECT_EQ(
      ep_buffer_bytes({.mode = EpMode::deepep_normal, .ep = 8, .hidden = 4096, .comm_sms = 20})
          .value,
      0.0);  // a dense model
}

}  // namespace
}  // namespace codesim::workload
