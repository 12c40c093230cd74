// How expert-parallel tokens travel: DeepEP's normal kernels (IB once per chosen node, then
// NVLink to the GPUs of its experts), straight to every expert's GPU, or DeepEP's low-latency
// kernels (one RDMA message per expert, even to a GPU of the same node, as first released; or
// the later variant that sends those over NVLink). One vocabulary for scenarios, `a2a` and the
// engine.
#pragma once

#include <array>
#include <string_view>
#include <utility>

namespace codesim::workload {

enum class EpMode { deepep_normal, direct, deepep_low_latency, deepep_low_latency_nvlink };

inline constexpr std::array kEpModeNames = {
    std::pair{EpMode::deepep_normal, std::string_view("deepep-normal")},
    std::pair{EpMode::direct, std::string_view("direct")},
    std::pair{EpMode::deepep_low_latency, std::string_view("deepep-low-latency")},
    std::pair{EpMode::deepep_low_latency_nvlink, std::string_view("deepep-low-latency-nvlink")},
};
constexpr const auto& spellings(EpMode) {
  return kEpModeNames;
}

constexpr std::string_view ep_mode_name(EpMode m) {
  for (const auto& [mode, name] : kEpModeNames) {
    if (mode == m) {
      return name;
    }
  }
  return "?";
}

}  // namespace codesim::workload
