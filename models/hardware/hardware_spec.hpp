// Plain specs of a GPU, its scale-up (NVLink) domain, NIC and PCIe: what a node is made of.
#pragma once

#include <string>

#include "sim/core/units.hpp"

namespace codesim::hardware {

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
  core::BytesPerSecond bandwidth;    // per direction
  core::Seconds latency_same_leaf;   // end to end through one leaf switch
  core::Seconds latency_cross_leaf;  // end to end through the spine
};

struct HardwareSpec {
  std::string name;
  GpuSpec gpu;
  ScaleUpSpec scale_up;
  NicSpec nic;
  core::BytesPerSecond pcie_bandwidth;  // GPU <-> NIC, per direction
  int gpus_per_node = 8;
};

}  // namespace codesim::hardware
