// Hardware presets (h800, h100, h200, b200, gb200) from docs/model/hardware.md.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/hardware/hardware_spec.hpp"

namespace codesim::hardware {

// The H200's HBM bandwidth (H200 SXM datasheet): the GPU the software stacks' kernels were timed on.
inline constexpr core::BytesPerSecond kH200HbmBandwidth(4.8e12);

// The preset of that name, or nullopt.
std::optional<HardwareSpec> find_preset(std::string_view name);

// Preset names in catalog order.
std::vector<std::string> preset_names();

// What NCCL and DeepEP add, as measured (the presets' CommCosts), without NVLink SHARP: for a
// GPU described by numbers, whose switch is not known to reduce.
CommCosts measured_library_costs();

}  // namespace codesim::hardware
