// NCCL's own rules (sim/comm/nccl_tuner.hpp) against the numbers NCCL 2.28's source gives by hand
// (docs/model/nccl.md).
#include "sim/comm/nccl_tuner.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "models/hardware/catalog.hpp"

namespace codesim::comm {
namespace {

topologies::NodeSpec node_of(const char* preset) {
  return topologies::node_spec_from(*hardware::find_preset(preset), core::Seconds(0));
}

TEST(NcclTuner, RingSearchPerGeneration) {
  // H200: 18 links x 20.6 = 370.8 GB/s; 6 rings at 60 fill 360 (the next speeds find no more),
  // duplicated to 12 at 30, each run twice: 24 channels.
  const NcclChannels h200 = nccl_channels(node_of("h200"));
  EXPECT_EQ(h200.search, 12);
  EXPECT_DOUBLE_EQ(h200.search_rate_GBps, 30.0);
  EXPECT_EQ(h200.runtime, 24);
  // H800: 8 links, 164.8 GB/s; 60 -> 2 rings (120), 50 -> 3 (150), 40 -> 4 (160), then 30, 24,
  // 20 find no more and 15 / 40 < 0.49 stops; 4 rings at 40 are duplicated (not over 4 rings):
  // 8 at 20, 16 channels.
  const NcclChannels h800 = nccl_channels(node_of("h800"));
  EXPECT_EQ(h800.search, 8);
  EXPECT_DOUBLE_EQ(h800.search_rate_GBps, 20.0);
  EXPECT_EQ(h800.runtime, 16);
  // A100: 12 links x 20 = 240; 6 rings at 40 fill it; duplicated to 12 at 20: 24 channels.
  const NcclChannels a100 = nccl_channels(node_of("a100"));
  EXPECT_EQ(a100.search, 12);
  EXPECT_DOUBLE_EQ(a100.search_rate_GBps, 20.0);
  // B200: 18 links x 40.1 = 721.8; 8 rings at 90 (720) beat every slower speed; 16 at 45.
  const NcclChannels b200 = nccl_channels(node_of("b200"));
  EXPECT_EQ(b200.search, 16);
  EXPECT_DOUBLE_EQ(b200.search_rate_GBps, 45.0);
  EXPECT_EQ(b200.runtime, 32);
}

TEST(NcclTuner, SmallCallsRunFewerChannels) {
  // Simple: 512 threads x 64 B = 32 KiB per channel: a 1 MiB call runs all 24 channels on an
  // H200, a 320 KiB one the largest c with 327680 >= c x 32768: 10.
  const auto h200 = node_of("h200");
  const auto ring = CollectiveAlgorithm::ring;
  EXPECT_EQ(nccl_channels_at(h200, ring, NcclProtocolId::simple, 2, core::Bytes(1 << 20)), 24);
  EXPECT_EQ(nccl_channels_at(h200, ring, NcclProtocolId::simple, 2, core::Bytes(327680)), 10);
  // The ring's LL threshold is 8 B x the ranks: 4 KiB over 512 x 16 B keeps 1 channel (0.5).
  EXPECT_EQ(nccl_channels_at(h200, ring, NcclProtocolId::ll, 2, core::Bytes(4096)), 1);
}

TEST(NcclTuner, RingAllReduceOnTwoH200sSwitchesFromLlToSimpleNearOnePointSevenMegabytes) {
  // Ring, 2 ranks: bus bandwidth 12 x 30 = 360 GB/s; LL min(141, 180) = 141, Simple 360, LL128
  // min(331.2, 440.4) = 331.2; latencies 6.6 + 2 x 0.6 = 7.8, 8.4 + 2 x 3.4 = 15.2,
  // 14 + 2 x 1.9 = 17.8 us. LL = Simple where 7.8 + S / 141e3 = 15.2 + S / 360e3: S = 1.715 MB;
  // LL128 is never the least.
  const auto h200 = node_of("h200");
  const auto at = [&](double bytes) {
    return nccl_collective_protocol(h200, CollectiveKind::all_reduce, CollectiveAlgorithm::ring, 2,
                                    core::Bytes(bytes));
  };
  EXPECT_EQ(at(4096), NcclProtocolId::ll);
  EXPECT_EQ(at(1.70e6), NcclProtocolId::ll);
  EXPECT_EQ(at(1.73e6), NcclProtocolId::simple);
  EXPECT_EQ(at(4e9), NcclProtocolId::simple);
}

TEST(NcclTuner, AllReduceOnEightH200sTakesRingLlThenNvlsFromAboutOnePointOneMegabytes) {
  // NVLS: a GPU's 370.8 GB/s carry 9 channels: intra speed 40 (41.2 allows it), inter speed 60
  // (the fastest up to 80); per channel min(60, 40 x 0.85 x 7/8 x 2 = 59.5); bus 8 x 59.5 = 476,
  // algorithm bandwidth 476 x 8 / 14 = 272 GB/s after 25 us. Ring LL: min(141, 360 / 2) x 8 / 14
  // = 80.57 GB/s after 6.6 + 14 x 0.6 = 15 us. Equal where 15 + S / 80.57e3 = 25 + S / 272e3:
  // S = 1.145 MB. Tree (half the bus bandwidth per rank) never wins here.
  const auto h200 = node_of("h200");
  const std::vector all{CollectiveAlgorithm::ring, CollectiveAlgorithm::tree,
                        CollectiveAlgorithm::nvls};
  const auto at = [&](double bytes, int ranks) {
    return nccl_collective_algorithm(h200, CollectiveKind::all_reduce, all, ranks,
                                     core::Bytes(bytes));
  };
  EXPECT_EQ(at(65536, 8), CollectiveAlgorithm::ring);
  EXPECT_EQ(at(1.14e6, 8), CollectiveAlgorithm::ring);
  EXPECT_EQ(at(1.15e6, 8), CollectiveAlgorithm::nvls);
  EXPECT_EQ(at(1e9, 8), CollectiveAlgorithm::nvls);
  const NcclEstimate nvls = nccl_estimate(h200, CollectiveKind::all_reduce,
                                          CollectiveAlgorithm::nvls, 8, core::Bytes(1e9));
  EXPECT_EQ(nvls.protocol, NcclProtocolId::simple);
  EXPECT_NEAR(nvls.us, 25 + 1e9 / (476e3 * 8 / 14), 1e-6);
  // Two ranks (no NVLS on the lent pair): the ring's algorithm bandwidth is the bus's, the
  // tree's half of it, so the ring at every size.
  const std::vector two{CollectiveAlgorithm::ring, CollectiveAlgorithm::tree};
  for (const double bytes : {4096.0, 1e6, 1e9}) {
    EXPECT_EQ(
        nccl_collective_algorithm(h200, CollectiveKind::all_reduce, two, 2, core::Bytes(bytes)),
        CollectiveAlgorithm::ring);
  }
}

TEST(NcclTuner, PointToPointIsLlUpTo16KibToAPeer) {
  EXPECT_EQ(nccl_p2p_protocol(core::Bytes(16384)), NcclProtocolId::ll);
  EXPECT_EQ(nccl_p2p_protocol(core::Bytes(16385)), NcclProtocolId::simple);
}

}  // namespace
}  // namespace codesim::comm
