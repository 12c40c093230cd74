// Versioned JSON form of a StepTrace: {"format": "codesim-steptrace", "version": 1, "ops": [...]}.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "sim/workload/step_trace.hpp"

namespace codesim::workload {

nlohmann::ordered_json to_json(const StepTrace& t);

// Throws core::InputError naming the file, line, column and key path of every problem, including
// those validate() finds.
StepTrace parse_step_trace(std::string_view text, const std::string& file);

}  // namespace codesim::workload
