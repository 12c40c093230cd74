// Dispatch and combine flows for the three DeepEP modes.
#include "sim/comm/expert_parallel.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "models/kernels/logfmt.hpp"
#include "sim/core/text.hpp"

namespace codesim::comm {
namespace {

using topologies::Flow;
using topologies::Via;

constexpr double kScaleBytes = 4;   // one FP32 scale per 128 channels
constexpr double kIndexBytes = 8;   // top-k expert index, int64
constexpr double kWeightBytes = 4;  // top-k weight, FP32
constexpr double kChannelsPerTile = 128;

// Adds count x bytes from a to b, and the same count of combine bytes back.
// Combine runs the hops the other way: the last dispatch hop is its first.
void add_pair(EpFlows& out, int a, int b, int count, const EpPayload& payload, Via via, int hop = 0,
              int hops = 1) {
  if (count == 0) {
    return;
  }
  out.dispatch.push_back(
      Flow{.src = a, .dst = b, .bytes = payload.dispatch * count, .via = via, .hop = hop});
  out.combine.push_back(Flow{
      .src = b, .dst = a, .bytes = payload.combine * count, .via = via, .hop = hops - 1 - hop});
}

}  // namespace

core::Bytes token_bytes(int hidden, WireFormat format) {
  const double h = hidden;
  switch (format.kind) {
    case WireFormat::Kind::bf16:
      return core::Bytes(2 * h);
    case WireFormat::Kind::fp8:
      return core::Bytes(h + h / kChannelsPerTile * kScaleBytes);
    case WireFormat::Kind::logfmt:
      return core::Bytes(kernels::logfmt_bytes(h, format.logfmt_bits));
  }
  return core::Bytes(2 * h);
}

EpPayload ep_payload(const EpPayloadSpec& spec) {
  const core::Bytes routing(spec.topk * (kIndexBytes + kWeightBytes));
  return EpPayload{token_bytes(spec.hidden, spec.dispatch) + routing,
                   token_bytes(spec.hidden, spec.combine)};
}

EpFlows ep_flows(const kernels::RoutingPlan& plan, EpMode mode, const EpPayload& payload,
                 const std::vector<int>& gpus) {
  if (static_cast<int>(gpus.size()) != plan.ep) {
    throw std::invalid_argument("the routing plan has " + std::to_string(plan.ep) +
                                " EP ranks but " + std::to_string(gpus.size()) +
                                " GPUs were given");
  }
  EpFlows out;
  for (int s = 0; s < plan.ep; ++s) {
    for (int d = 0; d < plan.ep; ++d) {
      const int a = gpus[static_cast<std::size_t>(s)];
      const int b = gpus[static_cast<std::size_t>(d)];
      switch (mode) {
        case EpMode::deepep_normal:
          // The NVLink hop forwards what IB brought (or starts at once, on the source's node; its
          // latency is then hidden under the IB hop's).
          add_pair(out, a, b, plan.rdma(s, d), payload, Via::shortest, 0, 2);
          add_pair(out, a, b, plan.nvlink(s, d), payload, Via::shortest, 1, 2);
          break;
        case EpMode::direct:
          add_pair(out, a, b, plan.direct(s, d), payload, Via::shortest);
          break;
        case EpMode::deepep_low_latency:
          add_pair(out, a, b, plan.per_expert(s, d), payload, Via::network);
          break;
        case EpMode::deepep_low_latency_nvlink:
          add_pair(out, a, b, plan.per_expert(s, d), payload, Via::shortest);
          break;
      }
    }
  }
  return out;
}

void add_ep_costs(Transfer& t, EpMode mode, const topologies::NodeSpec& node, int sms,
                  core::Bytes message) {
  const hardware::CommCosts& k = node.comm;
  const auto same_node = [&](const topologies::Flow& f) {
    return f.src / node.gpus_per_node == f.dst / node.gpus_per_node;
  };
  switch (mode) {
    case EpMode::deepep_normal:
      t.calls = {{.fixed_cost = k.ep_call}};
      // Across nodes (GPUs are numbered node by node) the internode kernel forwards.
      if (!std::ranges::all_of(t.flows, same_node)) {
        t.forward_cap = k.ep_forward_rate_per_sm * static_cast<double>(sms / 2);
      }
      break;
    case EpMode::direct:
      t.calls = {{.fixed_cost = k.ep_call}};
      break;
    case EpMode::deepep_low_latency:
    case EpMode::deepep_low_latency_nvlink: {
      core::Seconds fixed = k.ep_low_latency_call;
      if (mode == EpMode::deepep_low_latency_nvlink && message.value > 0) {
        // The SMs copy each message to a GPU of their node themselves: the busiest sender's
        // count of such messages x the cost of one.
        std::map<int, double> copied;
        for (const auto& f : t.flows) {
          if (same_node(f)) {
            copied[f.src] += f.bytes.value / message.value;
          }
        }
        double most = 0;
        for (const auto& [gpu, messages] : copied) {
          most = std::max(most, messages);
        }
        fixed = fixed + k.ep_low_latency_nvlink_message * most;
      }
      t.calls = {{.fixed_cost = fixed}};
      // One message per token and expert: the NIC's small-message rate, at the kernels' own
      // fitted share of it.
      t.efficiency = std::min(1.0, node.nic_small_message_efficiency * k.ep_low_latency_rate);
      break;
    }
  }
}

void apply_ep_rates(Transfer& t, EpMode mode, const EpKernelRates& rates, bool outward,
                    bool laid_out) {
  // The trace timed DeepEP's internode kernels, those that forward over NVLink (add_ep_costs);
  // a group within one node runs the intranode ones.
  if (mode != EpMode::deepep_normal || rates == EpKernelRates{} || !t.forward_cap) {
    return;
  }
  const double rate = outward ? rates.dispatch : rates.combine;
  if (!(rate > 0 && rate <= 1)) {
    throw std::invalid_argument("a DeepEP kernel rate must be in (0, 1], got " +
                                core::fixed(rate, 4));
  }
  // The kernel's SMs copy and post at `rate` of their pace alone; the links' capacity stays.
  for (auto* cap : {&t.sender_cap, &t.forward_cap}) {
    if (*cap) {
      **cap = **cap * rate;
    }
  }
  if (laid_out) {
    for (auto& call : t.calls) {
      call.fixed_cost = call.fixed_cost + rates.layout;
    }
  }
}

std::vector<GpuBytes> sent_per_gpu(const topologies::TrafficRouter& r,
                                   const topologies::LinkLoads& loads,
                                   const std::vector<int>& gpus) {
  const topologies::Topology& t = r.topology();
  std::vector<GpuBytes> out(gpus.size());
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    const auto v = t.gpu(gpus[i]);
    for (const auto e : boost::make_iterator_range(boost::out_edges(v, t.graph()))) {
      const auto& link = t.link(e);
      const int d =
          topologies::directed(link.id, r.from(topologies::directed(link.id, false)) != v);
      const core::Bytes bytes = loads.bytes[static_cast<std::size_t>(d)];
      if (link.kind == topologies::LinkKind::nvlink) {
        out[i].nvlink += bytes;
      } else if (link.kind == topologies::LinkKind::pcie) {
        out[i].rdma += bytes;
      }
    }
  }
  return out;
}

}  // namespace codesim::comm
