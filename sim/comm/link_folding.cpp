// Folding parallel links, and a transfer's loads on the folded links.
#include "sim/comm/link_folding.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace codesim::comm {

FoldedLinks fold_links(const topologies::TrafficRouter& router) {
  const topologies::Topology& t = router.topology();
  const auto& g = t.graph();
  // (lower vertex, higher vertex, link id), in that order: a pair's parallel links together.
  std::vector<std::tuple<int, int, int>> pairs;
  pairs.reserve(t.links().size());
  for (const auto e : t.links()) {
    const int id = g[e].id;
    const auto a = static_cast<int>(router.from(topologies::directed(id, false)));
    const auto b = static_cast<int>(router.to(topologies::directed(id, false)));
    pairs.emplace_back(std::min(a, b), std::max(a, b), id);
  }
  std::sort(pairs.begin(), pairs.end());
  FoldedLinks f;
  f.of_directed.assign(2 * t.links().size(), -1);
  for (auto first = pairs.begin(); first != pairs.end();) {
    const int low = std::get<0>(*first);
    const int high = std::get<1>(*first);
    const auto last = std::find_if(first, pairs.end(), [&](const auto& p) {
      return std::get<0>(p) != low || std::get<1>(p) != high;
    });
    double bw = 0;
    for (auto it = first; it != last; ++it) {
      bw += g[t.links()[static_cast<std::size_t>(std::get<2>(*it))]].bandwidth.value;
    }
    const int up = static_cast<int>(f.ends.size());  // low -> high
    f.ends.emplace_back(low, high);
    f.ends.emplace_back(high, low);
    f.bandwidth.insert(f.bandwidth.end(), {bw, bw});
    f.representative.insert(f.representative.end(), {-1, -1});
    for (auto it = first; it != last; ++it) {
      const int id = std::get<2>(*it);
      const bool forward = static_cast<int>(router.from(topologies::directed(id, false))) == low;
      f.of_directed[static_cast<std::size_t>(topologies::directed(id, false))] =
          forward ? up : up + 1;
      f.of_directed[static_cast<std::size_t>(topologies::directed(id, true))] =
          forward ? up + 1 : up;
      if (f.representative[static_cast<std::size_t>(up)] < 0) {
        f.representative[static_cast<std::size_t>(up)] = topologies::directed(id, !forward);
        f.representative[static_cast<std::size_t>(up) + 1] = topologies::directed(id, forward);
      }
    }
    first = last;
  }
  return f;
}

namespace {

// The SMs' copy work per GPU: the sender cap's over all it sends, the forwarding SMs' over its
// NVLink sends, the longer of the two (different SMs, side by side).
std::map<int, double> copy_seconds(const Transfer& t, const topologies::TrafficRouter& router) {
  std::map<int, double> copy;
  if (t.sender_cap) {
    std::map<int, double> sent;
    for (const auto& f : t.flows) {
      if (f.src != f.dst) {
        sent[f.src] += f.bytes.value;
      }
    }
    const auto others = static_cast<double>(t.every_pair.gpus.size()) - 1;
    for (const int gpu : t.every_pair.gpus) {
      sent[gpu] += t.every_pair.bytes.value * others;
    }
    for (const auto& [gpu, bytes] : sent) {
      copy[gpu] = bytes / t.sender_cap->value;
    }
  }
  if (t.forward_cap) {
    const topologies::Topology& topology = router.topology();
    std::map<int, double> forwarded;
    for (const auto& f : t.flows) {
      if (f.src != f.dst && f.via == topologies::Via::shortest &&
          topology.vertex(topology.gpu(f.src)).node == topology.vertex(topology.gpu(f.dst)).node) {
        forwarded[f.src] += f.bytes.value;
      }
    }
    for (const auto& [gpu, bytes] : forwarded) {
      copy[gpu] = std::max(copy[gpu], bytes / t.forward_cap->value);
    }
  }
  return copy;
}

}  // namespace

FoldedLoads fold_loads(const Transfer& t, const topologies::TrafficRouter& router,
                       const FoldedLinks& links) {
  FoldedLoads out;
  const topologies::SparseLinkLoads loads = router.sparse_loads(t.flows, t.every_pair);
  std::map<int, double> sum;  // per folded link
  for (const auto& [d, bytes] : loads.links) {
    sum[links.of_directed[static_cast<std::size_t>(d)]] += bytes.value / t.efficiency;
  }
  double link_time = 0;  // the most loaded link's, before the call's efficiency
  for (const auto& [d, bytes] : sum) {
    out.loads.emplace_back(d, bytes);
    const double time = bytes / links.bandwidth[static_cast<std::size_t>(d)];
    if (time > link_time) {
      link_time = time;
      out.bottleneck = links.representative[static_cast<std::size_t>(d)];
    }
  }
  double fixed_cost = 0;
  if (!t.calls.empty()) {
    if (t.chosen_call >= 0) {
      out.call = t.chosen_call;
    } else {
      double best = -1;
      for (std::size_t i = 0; i < t.calls.size(); ++i) {
        const auto& c = t.calls[i];
        const double time = c.fixed_cost.value + t.repeat * link_time / c.efficiency;
        if (best < 0 || time < best) {
          best = time;
          out.call = static_cast<int>(i);
        }
      }
    }
    const auto& chosen = t.calls[static_cast<std::size_t>(out.call)];
    fixed_cost = chosen.fixed_cost.value;
    link_time /= chosen.efficiency;
    for (auto& [d, bytes] : out.loads) {
      bytes /= chosen.efficiency;
    }
  }
  out.alone = link_time;
  const std::map<int, double> copy =
      out.loads.empty() ? std::map<int, double>() : copy_seconds(t, router);
  for (const auto& [gpu, seconds] : copy) {
    out.copy.emplace_back(gpu, seconds);
    if (seconds > out.alone) {
      out.alone = seconds;
      out.bottleneck = -1;  // the SMs, not a link
    }
  }
  out.latency = loads.latency.value;
  out.wait = fixed_cost + out.latency * (t.latency_steps > 0 ? t.latency_steps : t.repeat);
  return out;
}

double seconds_alone(const Transfer& t, const topologies::TrafficRouter& router,
                     const FoldedLinks& links) {
  const FoldedLoads f = fold_loads(t, router, links);
  return f.wait + t.repeat * f.alone;
}

}  // namespace codesim::comm
