// Hardware presets (h800, h100, h200, b200, gb200) from spec/hardware-and-topologies.md.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/hardware/hardware_spec.hpp"

namespace codesim::hardware {

// The preset of that name, or nullopt.
std::optional<HardwareSpec> find_preset(std::string_view name);

// Preset names in catalog order.
std::vector<std::string> preset_names();

}  // namespace codesim::hardware
