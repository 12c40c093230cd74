// Expert-parallel dispatch and combine (DeepEP) as flows, from a routing plan.
//
//   normal (two-hop): dispatch sends each token once over IB to the GPU of the same local index
//     on every other chosen node, which forwards it over NVLink to the GPUs hosting its experts
//     there (on its own node the source sends over NVLink itself); combine is the reverse, the
//     forwarder summing its node's results before the one IB transfer back.
//   direct: each token goes from its GPU to every GPU hosting one of its experts, by the
//     topology's route (NVLink inside a node).
//   low-latency: pure RDMA, one message per (token, expert) pair, even inside a node (through
//     the NICs; on MPFT two planes of one node only meet over NVLink).
//   low-latency-nvlink: the same messages, those inside a node over NVLink (DeepEP's later
//     variant).
//
// Payload per token: dispatch FP8 = hidden bytes + one FP32 scale per 128 channels (BF16 = 2 x
// hidden), plus the top-k expert indices (int64) and weights (FP32); combine BF16 = 2 x hidden or
// LogFMT-n (n bits per channel + two FP32 per 128).
#pragma once

#include <string_view>
#include <vector>

#include "models/kernels/routing_plan.hpp"
#include "sim/comm/transfer.hpp"
#include "sim/core/units.hpp"
#include "sim/workload/ep_mode.hpp"
#include "topologies/traffic.hpp"

namespace codesim::comm {

using workload::EpMode;

// How a token's channels travel: BF16, FP8 with an FP32 scale per 128 channels, or LogFMT-n
// (kernels/logfmt.hpp).
struct WireFormat {
  enum class Kind { bf16, fp8, logfmt } kind = Kind::bf16;
  int logfmt_bits = 0;
};
inline constexpr WireFormat kBf16Wire{WireFormat::Kind::bf16};
inline constexpr WireFormat kFp8Wire{WireFormat::Kind::fp8};
inline WireFormat logfmt_wire(int bits) {
  return {WireFormat::Kind::logfmt, bits};
}

// Bytes of one token's `hidden` channels in `format`.
core::Bytes token_bytes(int hidden, WireFormat format);

struct EpPayloadSpec {
  int hidden = 0;
  int topk = 0;  // experts per token: the dispatch carries their indices and weights
  WireFormat dispatch = kFp8Wire;
  WireFormat combine = kBf16Wire;
};

struct EpPayload {
  core::Bytes dispatch;  // per token message
  core::Bytes combine;
};

EpPayload ep_payload(const EpPayloadSpec& spec);

struct EpFlows {
  std::vector<topologies::Flow> dispatch;
  std::vector<topologies::Flow> combine;
};

// `gpus[i]` is the topology GPU of the plan's EP rank i. Throws std::invalid_argument when the
// counts differ.
EpFlows ep_flows(const kernels::RoutingPlan& plan, EpMode mode, const EpPayload& payload,
                 const std::vector<int>& gpus);

// What the kernel adds to its transfer (hardware::CommCosts): its fixed cost; for the
// low-latency kernels the NIC's small-message rate (as an efficiency on the transfer) and, in the
// NVLink variant, a cost per message its sender copies to a GPU of its own node (`message`: the
// bytes of one token-expert message of this transfer); for the normal kernels across nodes
// (flows forwarded over NVLink) the forwarding rate of half the `sms` SMs the kernel holds.
void add_ep_costs(Transfer& t, EpMode mode, const topologies::NodeSpec& node, int sms,
                  core::Bytes message);

// DeepEP's normal kernels as a software stack runs them, against the model of DeepEP's own
// benchmark (add_ep_costs): the share of their SMs' pace alone (the copy and forwarding caps)
// its dispatch-direction and combine-direction kernels keep, and what a dispatch that lays its
// tokens out anew (the forward's: layout and count exchange, no cached handle) costs before it
// moves them. The links' capacity is not touched: where a link binds, it still does. The
// defaults are the benchmark's; `deepseek` takes the fit to its training trace
// (models/calibration/deepseek-h800/fit_deepep_trace.json).
struct EpKernelRates {
  double dispatch = 1;  // in (0, 1]
  double combine = 1;
  core::Seconds layout;

  bool operator==(const EpKernelRates&) const = default;
};

// A DeepEP normal transfer across nodes at `rates`: outward (the dispatch direction) or back,
// laid out anew or with the layout cached. Other modes and transfers within a node are left as
// they are. Call after add_ep_costs.
void apply_ep_rates(Transfer& t, EpMode mode, const EpKernelRates& rates, bool outward,
                    bool laid_out);

// Bytes each GPU sends over its NIC (RDMA) and over its NVLink, as the link loads show them
// (forwarded traffic counts for the forwarder).
struct GpuBytes {
  core::Bytes rdma;
  core::Bytes nvlink;
};
std::vector<GpuBytes> sent_per_gpu(const topologies::TrafficRouter& r,
                                   const topologies::LinkLoads& loads,
                                   const std::vector<int>& gpus);

}  // namespace codesim::comm
