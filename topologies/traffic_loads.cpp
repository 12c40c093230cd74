// The router's results: each call's bytes tallied into one reused array and handed back as the
// links they load (or every link), the loads of each set of flows kept for the next call.
#include <algorithm>
#include <bit>

#include "topologies/mix.hpp"
#include "topologies/traffic.hpp"

namespace codesim::topologies {

void TrafficRouter::Tally::add(int directed_link, core::Bytes b) {
  core::Bytes& at = bytes[static_cast<std::size_t>(directed_link)];
  if (at.value == 0.0 && b.value != 0.0) {
    touched.push_back(directed_link);
  }
  at += b;
}

LinkLoads TrafficRouter::loads(std::span<const Flow> flows, const EveryPair& every) const {
  const SparseLinkLoads sparse = sparse_loads(flows, every);
  LinkLoads out{.bytes = std::vector<core::Bytes>(2 * topology_->links().size()),
                .latency = sparse.latency};
  for (const auto& [d, bytes] : sparse.links) {
    out.bytes[static_cast<std::size_t>(d)] = bytes;
  }
  return out;
}

namespace {

// Two independent 64-bit hashes of everything a transfer's loads depend on.
std::pair<std::uint64_t, std::uint64_t> key_of(std::span<const Flow> flows,
                                               const EveryPair& every) {
  std::pair<std::uint64_t, std::uint64_t> h{0x243f6a8885a308d3ULL, 0x13198a2e03707344ULL};
  const auto fold = [&](std::uint64_t x) {
    h.first = mix(h.first ^ x);
    h.second = mix(h.second + x * 0x9e3779b97f4a7c15ULL + 0x7f4a7c15ULL);
  };
  fold(flows.size());
  for (const Flow& f : flows) {
    fold(static_cast<std::uint64_t>(static_cast<std::uint32_t>(f.src)) << 32 |
         static_cast<std::uint32_t>(f.dst));
    fold(std::bit_cast<std::uint64_t>(f.bytes.value));
    fold(static_cast<std::uint64_t>(f.via == Via::network) << 32 |
         static_cast<std::uint32_t>(f.hop));
  }
  fold(every.gpus.size());
  for (const int g : every.gpus) {
    fold(static_cast<std::uint32_t>(g));
  }
  fold(std::bit_cast<std::uint64_t>(every.bytes.value));
  return h;
}

}  // namespace

SparseLinkLoads TrafficRouter::sparse_loads(std::span<const Flow> flows,
                                            const EveryPair& every) const {
  const auto key = key_of(flows, every);
  if (const auto found = routed_.find(key); found != routed_.end()) {
    return found->second;
  }
  if (scratch_.bytes.empty()) {
    scratch_.bytes.assign(2 * topology_->links().size(), core::Bytes(0));
  }
  // Cleared on the way out, thrown or not: the next call starts from zero.
  struct Clear {
    Tally& t;
    ~Clear() {
      for (const int d : t.touched) {
        t.bytes[static_cast<std::size_t>(d)] = core::Bytes(0);
      }
      t.touched.clear();
    }
  } clear{scratch_};
  SparseLinkLoads out{.latency = tally(flows, every, scratch_)};
  std::sort(scratch_.touched.begin(), scratch_.touched.end());
  out.links.reserve(scratch_.touched.size());
  for (const int d : scratch_.touched) {
    out.links.emplace_back(d, scratch_.bytes[static_cast<std::size_t>(d)]);
  }
  routed_.emplace(key, out);
  return out;
}

}  // namespace codesim::topologies
