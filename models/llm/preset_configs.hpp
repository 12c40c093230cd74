// The config files of the presets defined by a published config.json (models/llm/configs/
// NAME.json, listed in models/llm/CMakeLists.txt), compiled in so that an installed codesim
// needs no data file to know them.
#pragma once

#include <span>
#include <string_view>

namespace codesim::llm {

struct PresetConfig {
  std::string_view name;  // the preset's name, the file's stem
  std::string_view text;  // the file's bytes
};

std::span<const PresetConfig> preset_configs();

}  // namespace codesim::llm
