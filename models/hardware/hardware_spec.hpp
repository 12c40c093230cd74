// Plain specs of a GPU, its scale-up (NVLink) domain, NIC and PCIe: what a node is made of.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "sim/core/units.hpp"

namespace codesim::hardware {

// What a GPU's board power is spent on while kernels run (models/calibration/h200/power): tensor
// cores in BF16 or FP8 (GEMMs), fused attention, SM-side memory-bound work (norms; elementwise,
// casts, permutes, the optimizer) and plain copies (memcpy, communication kernels).
enum class PowerActivity { tensor_bf16, tensor_fp8, attention, norm, elementwise, copy };
inline constexpr int kPowerActivities = 6;

// One kind of work's power and its response to the SM clock f (f_max: the top clock):
//   time at f    = max(1, clock_bound x f_max / f) x its time at f_max (0: memory-bound, it keeps
//                  its time; GEMMs have a floor the SM clock does not set)
//   energy at f  = dynamic x (its work / reference rate) x (f / f_max)^energy_exponent, above
//                  `awake`: energy goes with the work done (FLOPs for tensor cores and attention,
//                  HBM bytes for the rest), so a kernel at a third of the measured kernel's rate
//                  draws a third of its power
struct ActivityPower {
  double dynamic_w = 0;  // watts above the awake board while the measured kernel runs at f_max
  // That kernel's rate at f_max as a fraction of the GPU's peak: its dtype's tensor peak for
  // GEMMs, the BF16 peak for attention, HBM bandwidth for the rest.
  double reference_fraction = 0;
  double clock_bound = 0;
  double energy_exponent = 1;
};

// The board's power and its governor: over a window of tens of milliseconds the SM clock is the
// highest at which the work running draws no more than `limit_w` (docs/model/power.md).
struct PowerSpec {
  double limit_w = 0;   // board power limit (the TDP unless the scenario sets another); 0: none
  double tdp_w = 0;     // the board's default limit
  double idle_w = 0;    // at rest, clocks down
  double awake_w = 0;   // clocks up, SMs idle (a rank waiting on communication)
  double max_clock_mhz = 0;
  double min_clock_mhz = 0;  // the lowest the governor goes
  // How long a gap in the work must be for the clock to recover in it: the board reached its
  // cap within this of the start of load after idling.
  double window_s = 0.08;
  // The figures are another GPU's measurements carried over (scaled), not this GPU's own.
  bool carried = false;
  // The GPU whose power and clock runs the figures were fitted to (models/calibration/<it>/power).
  std::string_view measured_on = "h200";
  std::array<ActivityPower, kPowerActivities> activity{};
  const ActivityPower& of(PowerActivity a) const { return activity[static_cast<std::size_t>(a)]; }
};

// The generation a GPU's kernels were measured on decides whether the kernel model's
// efficiencies (measured on Hopper) are measurements or an assumption for it.
enum class Architecture { unknown, ampere, hopper, blackwell };

struct GpuSpec {
  int sms = 0;                     // streaming multiprocessors
  core::FlopsPerSecond bf16_peak;  // dense tensor-core peak, whole GPU
  core::FlopsPerSecond fp8_peak;   // dense tensor-core peak, whole GPU; 0: no FP8 tensor cores
  core::Bytes hbm_capacity;
  core::BytesPerSecond hbm_bandwidth;
  Architecture architecture = Architecture::unknown;  // unknown: a GPU described by numbers
  PowerSpec power;  // limit_w 0: no power model (a GPU described by numbers alone)
};

// NVLink through NVSwitch: bandwidth per GPU per direction.
struct ScaleUpSpec {
  core::BytesPerSecond bandwidth;          // achievable, used by the simulator
  core::BytesPerSecond nominal_bandwidth;  // datasheet, for reports
  core::Seconds latency;                   // end to end, small message
  int domain_gpus = 8;                     // GPUs in one NVLink domain (8; 72 for NVL72)
};

// Scale-out NIC, one per GPU.
struct NicSpec {
  core::BytesPerSecond bandwidth;          // per direction, achievable
  core::BytesPerSecond nominal_bandwidth;  // line rate, for reports
  // The fraction of `bandwidth` that messages of a few KB reach (DeepEP's low-latency kernels:
  // one message per token and expert).
  double small_message_efficiency = 1;
  core::Seconds latency_same_leaf;   // end to end through one leaf switch
  core::Seconds latency_cross_leaf;  // end to end through the spine
};

// One of NCCL's protocols: the fraction of the bytes it moves that is payload (NCCL documents
// LL at 0.5: each 8-byte store carries 4 bytes and a flag; LL128 at 120/128; Simple at 1) and
// its fixed cost per call (fitted). NCCL picks, per call, the protocol its cost model finds
// fastest.
struct NcclProtocol {
  double efficiency = 1;
  core::Seconds collective_call;  // all-reduce, all-gather, reduce-scatter
  core::Seconds p2p_call;         // send/recv and all-to-all (grouped point-to-point)
};

// What the communication libraries add to the links' time (models/calibration/README.md): a
// fixed cost per call and, inside one NVLink domain, what NCCL's channels can move: a
// collective's rate is min(NVLink, channels x its rate per channel), the channels NCCL's own
// rules give (sim/comm/nccl_tuner.hpp); across nodes, where nothing was measured, the links'.
struct CommCosts {
  std::array<NcclProtocol, 3> protocols;  // LL, LL128, Simple
  core::Seconds ep_call;              // a DeepEP normal dispatch or combine kernel
  core::Seconds ep_low_latency_call;  // a DeepEP low-latency kernel, pure RDMA
  // The low-latency kernels' NVLink variant: what the sending SMs pay per token-expert message
  // they copy to a GPU of their own node (the busiest sender's count).
  core::Seconds ep_low_latency_nvlink_message;
  // DeepEP's internode normal kernels: half their SMs forward the tokens that arrive over RDMA
  // (and the own node's) to the node's GPUs over NVLink; what one such SM sends.
  core::BytesPerSecond ep_forward_rate_per_sm;
  // DeepEP's low-latency kernels (one message per token and expert): their rate against the
  // NIC's small-message rate (NicSpec::small_message_efficiency).
  double ep_low_latency_rate = 1;
  // Payload per second one NCCL channel moves with the Simple protocol: ring (and direct)
  // all-gather, ring reduce-scatter (also the phases of a hierarchical all-reduce inside the
  // nodes), ring all-reduce, tree all-reduce.
  core::BytesPerSecond all_gather_per_channel{1e15};
  core::BytesPerSecond reduce_scatter_per_channel{1e15};
  core::BytesPerSecond ring_all_reduce_per_channel{1e15};
  core::BytesPerSecond tree_all_reduce_per_channel{1e15};
  double nvls_all_reduce = 1;  // payload over what the links carry meanwhile
  double all_to_all = 1;       // the same, for grouped point-to-point (no channel bound found)
  bool nvls = false;  // the NVSwitch reduces in the switch (NVLink SHARP: Hopper and later)
};

struct HardwareSpec {
  std::string name;
  GpuSpec gpu;
  ScaleUpSpec scale_up;
  NicSpec nic;
  core::BytesPerSecond pcie_bandwidth;  // GPU <-> NIC, per direction, achievable
  core::BytesPerSecond pcie_nominal_bandwidth;  // line rate, for reports
  CommCosts comm;
  int gpus_per_node = 8;
};

}  // namespace codesim::hardware
