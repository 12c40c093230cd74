// The hardware presets. Figures are vendor datasheet values (dense, no sparsity) and DeepSeek's
// published measurements; where no achievable figure is published the nominal one is used and
// the comment says so.
#include "models/hardware/catalog.hpp"

#include <algorithm>

namespace codesim::hardware {
namespace {

using namespace core::literals;

// ConnectX-7 400 Gb/s InfiniBand; latencies measured by DeepSeek (ISCA 2025, Table 5).
constexpr NicSpec kConnectX7{
    .bandwidth = 400_Gbps, .latency_same_leaf = 2.8_us, .latency_cross_leaf = 3.7_us};

std::vector<HardwareSpec> presets() {
  return {
      HardwareSpec{
          .name = "h800",
          .gpu = {.sms = 132,
                  .bf16_peak = 989_TFLOPS,
                  .fp8_peak = 1979_TFLOPS,
                  .hbm_capacity = 80_GB,
                  .hbm_bandwidth = 3.35_TBps},
          // 200 GB/s nominal per direction; 160 GB/s achievable (DeepSeek, ISCA 2025 §4).
          .scale_up = {.bandwidth = 160_GBps,
                       .nominal_bandwidth = 200_GBps,
                       .latency = 3.33_us,
                       .domain_gpus = 8},
          .nic = kConnectX7,
          .pcie_bandwidth = 64_GBps,
          .gpus_per_node = 8},
      HardwareSpec{
          .name = "h100",
          .gpu = {.sms = 132,
                  .bf16_peak = 989_TFLOPS,
                  .fp8_peak = 1979_TFLOPS,
                  .hbm_capacity = 80_GB,
                  .hbm_bandwidth = 3.35_TBps},
          // No published achievable figure: nominal 450 GB/s; latency as measured on H800.
          .scale_up = {.bandwidth = 450_GBps,
                       .nominal_bandwidth = 450_GBps,
                       .latency = 3.33_us,
                       .domain_gpus = 8},
          .nic = kConnectX7,
          .pcie_bandwidth = 64_GBps,
          .gpus_per_node = 8},
      HardwareSpec{
          .name = "h200",
          .gpu = {.sms = 132,
                  .bf16_peak = 989_TFLOPS,
                  .fp8_peak = 1979_TFLOPS,
                  .hbm_capacity = 141_GB,
                  .hbm_bandwidth = 4.8_TBps},
          .scale_up = {.bandwidth = 450_GBps,
                       .nominal_bandwidth = 450_GBps,
                       .latency = 3.33_us,
                       .domain_gpus = 8},
          .nic = kConnectX7,
          .pcie_bandwidth = 64_GBps,
          .gpus_per_node = 8},
      HardwareSpec{
          .name = "b200",
          .gpu = {.sms = 148,
                  .bf16_peak = 2250_TFLOPS,
                  .fp8_peak = 4500_TFLOPS,
                  .hbm_capacity = 192_GB,
                  .hbm_bandwidth = 8.0_TBps},
          .scale_up = {.bandwidth = 900_GBps,
                       .nominal_bandwidth = 900_GBps,
                       .latency = 3.33_us,
                       .domain_gpus = 8},
          .nic = kConnectX7,
          .pcie_bandwidth = 64_GBps,
          .gpus_per_node = 8},
      HardwareSpec{
          .name = "gb200",
          .gpu = {.sms = 148,
                  .bf16_peak = 2500_TFLOPS,
                  .fp8_peak = 5000_TFLOPS,
                  .hbm_capacity = 186_GB,
                  .hbm_bandwidth = 8.0_TBps},
          // NVL72: one NVLink domain of 72 GPUs, 900 GB/s per GPU per direction.
          .scale_up = {.bandwidth = 900_GBps,
                       .nominal_bandwidth = 900_GBps,
                       .latency = 3.33_us,
                       .domain_gpus = 72},
          .nic = kConnectX7,
          .pcie_bandwidth = 64_GBps,
          .gpus_per_node = 72},
  };
}

}  // namespace

std::optional<HardwareSpec> find_preset(std::string_view name) {
  const auto all = presets();
  const auto it = std::find_if(all.begin(), all.end(), [&](const auto& h) { return h.name == name; });
  if (it == all.end()) {
    return std::nullopt;
  }
  return *it;
}

std::vector<std::string> preset_names() {
  std::vector<std::string> names;
  for (const auto& h : presets()) {
    names.push_back(h.name);
  }
  return names;
}

}  // namespace codesim::hardware
