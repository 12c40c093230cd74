// NCCL 2.28's channel search and tuner, one node over NVLink (src/graph/search.cc, tuning.cc,
// connect.cc, enqueue.cc; constants as docs/model/nccl.md lists them).
#include "sim/comm/nccl_tuner.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <span>

namespace codesim::comm {
namespace {

using hardware::Architecture;
using P = NcclProtocolId;

constexpr int kMaxSearchChannels = 32;  // MAXCHANNELS / 2
constexpr int kMaxChannels = 64;        // MAXCHANNELS

// The ring search's speeds per channel, GB/s (search.cc: speedArrayIntra and the SM90/SM100
// lists).
constexpr std::array kAmpereSpeeds{40.0, 30.0, 20.0, 18.0, 15.0, 12.0, 10.0,
                                   9.0,  7.0,  6.0,  5.0,  4.0,  3.0};
constexpr std::array kHopperSpeeds{60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 15.0, 12.0, 11.0, 6.0, 3.0};
constexpr std::array kBlackwellSpeeds{90.0, 80.0, 70.0, 60.0, 50.0, 45.0,
                                      40.0, 30.0, 24.0, 20.0, 19.0, 18.0};

// Per architecture: NCCL's NVLink figure per link (topo.h) and the generation's nominal rate per
// link and direction (NVLink 3 and 4: 25 GB/s, NVLink 5: 50), then the tuner's one-node limits
// (tuning.cc: llMaxBws, perChMaxRingLL128Bws, perChMaxTreeBws, perChMaxTreeLL128Bws).
struct ArchRules {
  std::span<const double> speeds;
  double nccl_link_GBps;
  double nominal_link_GBps;
  double ll_max_GBps;
  double ring_ll128_per_channel;
  double tree_per_channel;
  double tree_ll128_per_channel;
  double nvls_efficiency;  // tuning.cc: nvlsEfficiency (none before Hopper)
};

ArchRules rules(Architecture a) {
  switch (a) {
    case Architecture::ampere:
      return {kAmpereSpeeds, 20.0, 25.0, 87.7, 20.0, 24.0, 20.0, 0.0};
    case Architecture::blackwell:
      return {kBlackwellSpeeds, 40.1, 50.0, 282.0, 40.0, 70.0, 55.6, 0.74};
    case Architecture::hopper:
    case Architecture::unknown:  // a custom GPU: taken as Hopper
      break;
  }
  return {kHopperSpeeds, 20.6, 25.0, 141.0, 36.7, 38.7, 36.7, 0.85};
}

// tuning.cc's base latency (us) per algorithm and protocol, and its NVLink latency per step.
constexpr std::array<std::array<double, 3>, 2> kBaseLatency{{{6.6, 14.0, 8.4}, {6.8, 14.0, 8.4}}};
constexpr std::array<std::array<double, 3>, 2> kNvlinkLatency{{{0.6, 1.9, 3.4}, {0.6, 1.25, 4.0}}};
constexpr int kRing = 0;
constexpr int kTree = 1;
constexpr double kNvlsLatency = 25.0;  // tuning.cc: hwLatencies[NVLINK][NVLS][Simple]

// tuning.cc's treeCorrectionFactor, by protocol and log2(bytes / 64).
constexpr std::array<std::array<double, 24>, 3> kTreeCorrection{{
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7,  .7,  .7,  .6,  .5,
     .4,  .4,  .5,  .6,  .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7,  .6,  .6,
     .6,  .6,  .6,  .6,  .8,  .9, .9, .9, .9, 1.0, 1.0, 1.0},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5,
     .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9},
}};

// The fastest of a generation's search speeds that `fits`; `otherwise` where none does.
template <class Fits>
double fastest_speed(std::span<const double> speeds, Fits fits, double otherwise) {
  const auto it = std::ranges::find_if(speeds, fits);
  return it == speeds.end() ? otherwise : *it;
}

double nccl_nvlink_GBps(const topologies::NodeSpec& node) {
  const ArchRules r = rules(node.architecture);
  return node.nvlink_nominal_bandwidth.value / 1e9 / r.nominal_link_GBps * r.nccl_link_GBps;
}

struct Ring {
  int channels = 0;
  double rate = 0;
};

// search.cc: the most rings, each `speed` on every link it crosses, from the fastest speed
// down while the next is above 0.49 of the best found; stop once they fill the links.
Ring search(std::span<const double> speeds, double total) {
  Ring best;
  std::size_t i = 0;
  while (i + 1 < speeds.size() && speeds[i] > total) {
    ++i;
  }
  for (;; ++i) {
    const int n = std::min(kMaxSearchChannels, static_cast<int>(std::floor(total / speeds[i])));
    if (n * speeds[i] > best.channels * best.rate) {
      best = {n, speeds[i]};
    }
    if (best.channels * best.rate >= total || i + 1 >= speeds.size() ||
        (best.channels > 0 && speeds[i + 1] / best.rate <= 0.49)) {
      break;
    }
  }
  return best;
}

// search.cc's ncclTopoDupChannels: rings of 25 GB/s and more are doubled, at half the rate
// (not on Hopper and later below 50 GB/s with more than 4 rings).
Ring duplicate(Ring r, Architecture a) {
  const bool after_ampere =
      a == Architecture::hopper || a == Architecture::blackwell || a == Architecture::unknown;
  if (r.channels == 0 || r.rate < 25.0 || (after_ampere && r.rate < 50.0 && r.channels > 4)) {
    return r;
  }
  const int doubled = std::min(2 * r.channels, kMaxSearchChannels);
  const int divisor = (doubled + r.channels - 1) / r.channels;
  return {doubled, r.rate / divisor};
}

// enqueue.cc: threads per channel and the thread threshold (comm.h) of each protocol.
int threads(P p) {
  return p == P::ll128 ? 640 : 512;
}
int thread_threshold(P p, CollectiveAlgorithm a, int ranks) {
  switch (p) {
    case P::ll:
      return a == CollectiveAlgorithm::tree ? 8 : 8 * ranks;
    case P::ll128:
      return 8;
    case P::simple:
      break;
  }
  return 64;
}

}  // namespace

NcclChannels nccl_channels(const topologies::NodeSpec& node) {
  const Ring ring =
      duplicate(search(rules(node.architecture).speeds, nccl_nvlink_GBps(node)), node.architecture);
  return {.search = ring.channels,
          .search_rate_GBps = ring.rate,
          .runtime = std::min(kMaxChannels, 2 * ring.channels)};
}

int nccl_channels_at(const topologies::NodeSpec& node, CollectiveAlgorithm algorithm,
                     NcclProtocolId protocol, int ranks, core::Bytes size) {
  int c = nccl_channels(node).runtime;
  const double per_channel =
      static_cast<double>(threads(protocol)) * thread_threshold(protocol, algorithm, ranks);
  while (c > 1 && size.value < c * per_channel) {
    --c;
  }
  return c;
}

NcclEstimate nccl_estimate(const topologies::NodeSpec& node, CollectiveKind kind,
                           CollectiveAlgorithm algorithm, int ranks, core::Bytes size) {
  const ArchRules r = rules(node.architecture);
  const double n = ranks;
  // A ring's (and NVLS's) steps: 2 (n - 1) for an all-reduce, n - 1 otherwise.
  const double ring_steps = kind == CollectiveKind::all_reduce ? 2 * (n - 1) : n - 1;
  if (algorithm == CollectiveAlgorithm::nvls) {
    // search.cc: one channel per GPU, each pulled by every GPU and pushed twice by its head, so
    // a GPU's NVLinks carry (n + 1) channels at the intra speed; its second pass raises the
    // inter speed (no link of one node limits it) to the fastest at most twice the intra one.
    // tuning.cc: a channel's rate is the intra speed x the NVLS efficiency x (c - 1) / c,
    // doubled for an all-reduce (two operations pipelined), at most the inter speed; 25 us of
    // latency; Simple only.
    const double link = nccl_nvlink_GBps(node);
    const double intra = fastest_speed(
        r.speeds, [&](double s) { return s <= link / (n + 1); }, r.speeds.back());
    const double inter = fastest_speed(
        r.speeds, [&](double s) { return s <= 2 * intra; }, r.speeds.back());
    const double per_channel =
        std::min(inter, intra * r.nvls_efficiency * (n - 1) / n *
                            (kind == CollectiveKind::all_reduce ? 2.0 : (n - 1) / n));
    const double bus = n * per_channel;
    return {.protocol = P::simple, .us = kNvlsLatency + size.value / (1e3 * bus * n / ring_steps)};
  }
  const NcclChannels ch = nccl_channels(node);
  std::array<double, 3> bw{};
  double ratio = 1;  // bus to algorithm bandwidth
  double steps = 0;  // latency steps
  int algo = kRing;
  if (algorithm == CollectiveAlgorithm::tree) {
    // The tree graph keeps the ring's channel count, at the speed its doubled budget allows.
    algo = kTree;
    const double total = nccl_nvlink_GBps(node) * n / (n - 1);
    const double rate = fastest_speed(
        r.speeds, [&](double s) { return ch.search * s <= total; }, 0.0);
    const double bus = std::min(ch.search * rate * 0.92, ch.search * r.tree_per_channel);
    bw = {std::min(bus / 3.8, r.ll_max_GBps),
          std::min(bus * 7.0 / 9.0, ch.search * r.tree_ll128_per_channel), bus};
    ratio = 0.5;
    steps = 2 * (n - 1);
  } else {
    const double bus = ch.search * ch.search_rate_GBps;
    bw = {std::min(r.ll_max_GBps, bus * 0.5),
          std::min(bus * 0.92, ch.search * r.ring_ll128_per_channel), bus};
    steps = ring_steps;
    ratio = n / steps;
  }
  const int log_size =
      size.value >= 64 ? static_cast<int>(std::floor(std::log2(size.value / 64))) : -1;
  NcclEstimate best{.protocol = P::simple, .us = std::numeric_limits<double>::infinity()};
  for (int p = 0; p < 3; ++p) {
    double rate = bw[static_cast<std::size_t>(p)] * ratio;
    if (algo == kTree && log_size >= 0 && log_size < 23) {
      rate *= kTreeCorrection[static_cast<std::size_t>(p)][static_cast<std::size_t>(log_size)];
    }
    const double us =
        kBaseLatency[static_cast<std::size_t>(algo)][static_cast<std::size_t>(p)] +
        steps * kNvlinkLatency[static_cast<std::size_t>(algo)][static_cast<std::size_t>(p)] +
        size.value / (1e3 * rate);
    if (us < best.us) {
      best = {.protocol = static_cast<P>(p), .us = us};
    }
  }
  return best;
}

NcclProtocolId nccl_collective_protocol(const topologies::NodeSpec& node, CollectiveKind kind,
                                        CollectiveAlgorithm algorithm, int ranks,
                                        core::Bytes size) {
  return nccl_estimate(node, kind, algorithm, ranks, size).protocol;
}

CollectiveAlgorithm nccl_collective_algorithm(const topologies::NodeSpec& node, CollectiveKind kind,
                                              std::span<const CollectiveAlgorithm> candidates,
                                              int ranks, core::Bytes size) {
  CollectiveAlgorithm best = candidates.front();
  double best_us = std::numeric_limits<double>::infinity();
  for (const auto a : candidates) {
    const double us = nccl_estimate(node, kind, a, ranks, size).us;
    if (us < best_us) {
      best = a;
      best_us = us;
    }
  }
  return best;
}

NcclProtocolId nccl_p2p_protocol(core::Bytes largest_to_one_peer) {
  return largest_to_one_peer.value <= 16384 ? P::ll : P::simple;
}

}  // namespace codesim::comm
