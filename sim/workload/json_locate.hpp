// Where a JSON value sits in its text: nlohmann keeps no positions, so the text is scanned again
// for the elements of one top-level array.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sim/core/error.hpp"

namespace codesim::workload {

// Byte offsets of the elements of the array under top-level `key` (or of a top-level array when
// key is empty), in order; empty when not found.
std::vector<std::size_t> array_element_offsets(std::string_view text, std::string_view key);

}  // namespace codesim::workload
