// What a simulated training step gives: the figures every report writer prints. Plain data; the
// engine measures it, sim/study assembles it, sim/report writes it.
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/note.hpp"
#include "sim/core/units.hpp"
#include "sim/metrics/breakdown.hpp"
#include "sim/metrics/comm_group.hpp"
#include "sim/metrics/fidelity.hpp"
#include "sim/metrics/pipeline_lanes.hpp"
#include "sim/metrics/step_energy.hpp"
#include "sim/metrics/step_spread.hpp"

namespace codesim::metrics {

struct LinkUse {
  std::string link;  // "ib nic_n0_0 -> leaf0"
  core::Bytes bytes;
  double utilization = 0;  // bytes / (bandwidth x step time)
  // How long transfers that load it were in flight (their tasks' spans after their own
  // computation, overlaps counted once), and bytes / (bandwidth x that time).
  core::Seconds in_flight;
  double in_flight_utilization = 0;
};

// One tier of links (TrafficRouter::tier: "ib leaf -> spine", one direction) over the step: how
// many directed links it has, how many carried the simulated traffic, their bytes, and their
// mean and highest utilization.
struct TierUse {
  std::string tier;
  int links = 0;
  int used = 0;
  core::Bytes bytes;
  double mean_utilization = 0;  // over the links used
  double max_utilization = 0;
  // The most utilized link's bytes over its bandwidth x the time transfers loading it were in
  // flight (LinkUse::in_flight): how hard it is driven while it is driven at all.
  double max_in_flight_utilization = 0;
};

// Per GPU of the first pipeline rank.
struct MemoryUse {
  core::Bytes parameters;
  core::Bytes gradients;
  core::Bytes optimizer;
  core::Bytes activations;  // at their peak over the first rank's schedule
  int peak_in_flight = 0;
  core::Bytes capacity;
  // What the step allocates for a moment at its two peaks: at the start of a backward with every
  // activation held, the loss's logit gradients (and, where the backward creates the gradients,
  // the head's weight gradient); in the optimizer step, its temporaries.
  core::Bytes backward_transient;
  core::Bytes optimizer_transient;
  // The gradients are held from the step's start (accumulated over micro-batches, or a
  // framework's buffers); else the backward creates them as it frees the activations.
  bool gradients_persist = true;
  // What the process holds outside its tensors: the CUDA context with the framework's kernels
  // and the libraries' handles (measured on the H200, workload::kFrameworkBytes), and DeepEP's
  // buffers where its kernels carry the EP tokens (workload::ep_buffer_bytes); NCCL's buffers
  // are not counted.
  core::Bytes framework;
  core::Bytes ep_buffers;
  core::Bytes fixed() const { return parameters + gradients + optimizer; }
  // What the step holds throughout: the parameters, the optimizer state and the gradients where
  // they persist.
  core::Bytes resident() const {
    return parameters + optimizer + (gradients_persist ? gradients : core::Bytes(0));
  }
  core::Bytes backward_peak() const { return resident() + activations + backward_transient; }
  core::Bytes optimizer_peak() const { return fixed() + optimizer_transient; }
  // The step's peak of tensors (what PyTorch's allocator counts).
  core::Bytes total() const { return std::max(backward_peak(), optimizer_peak()); }
  // What the GPU must hold: the peak, the framework's share and the EP kernels' buffers.
  core::Bytes needed() const { return total() + framework + ep_buffers; }
  bool fits() const { return needed() <= capacity; }
};

// The scale-out network the step ran on (topologies/properties.hpp), for cost comparisons.
struct NetworkUse {
  std::string family;
  long long endpoints = 0;  // NICs
  long long switches = 0;
  long long switch_links = 0;  // switch to switch
  double cost_usd = 0;         // at the scenario's unit prices
};

struct RunResult {
  std::string scenario;
  Fidelity fidelity = Fidelity::full;
  NetworkUse network;
  core::Seconds step_time;  // with variability: the mean of the steps drawn
  // Variability on (sim/variability): the steps drawn, each replica at its pace. Off: none, and
  // every replica is identical.
  std::optional<StepSpread> spread;
  Breakdown breakdown;  // of the identical-replica step
  double tokens_per_step = 0;
  double tokens_per_day = 0;
  double tflops_causal = 0;  // per GPU
  double tflops_noncausal = 0;
  double mfu_causal = 0;  // against the dense BF16 peak
  double mfu_noncausal = 0;
  double hfu_causal = 0;  // hardware FLOPs: model FLOPs plus recomputed ones
  std::map<CommGroup, core::Seconds> exposed_comm;  // every group, zero when it never waits
  core::Seconds compute_busy;                       // the first rank's compute stream
  // Median time of an overlapped F&B pair of two stages of MoE layers only (no embedding, head
  // or dense layer): what DeepSeek's profile trace shows one of.
  core::Seconds median_pair;
  int pairs_measured = 0;
  // Bytes over the scale-out network per GPU of the first rank's EP group and step: what its
  // NICs send.
  core::Bytes ib_bytes_per_gpu;
  std::vector<LinkUse> busiest_links;
  std::vector<TierUse> tiers;  // GPU side first, then up the network
  MemoryUse memory;
  // The step's energy and the GPUs' governed clocks; absent for a GPU without a power model.
  std::optional<StepEnergy> energy;
  std::vector<std::string> placement;  // per stage: its layers
  std::vector<core::Note> notes;       // what the models folded, fitted, assumed, estimated
  // Per pipeline rank, what its streams did when (HTML timeline). Not part of the JSON report.
  std::vector<RankLanes> lanes;
};

}  // namespace codesim::metrics
