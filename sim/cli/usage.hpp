// Usage errors and progress lines shared by the subcommands: "codesim <command>: error: [key:
// ]message".
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>

#include "models/hardware/hardware_spec.hpp"
#include "sim/report/format.hpp"

namespace codesim::cli {

// Throws core::InputError (exit code 2) located at the command, with `key` (a flag) if given.
[[noreturn]] void throw_usage_error(std::string_view command, const std::string& message,
                                    const std::string& hint = {}, const std::string& key = {});

// The hardware preset `name`, or a usage error listing the presets.
hardware::HardwareSpec hardware_preset(std::string_view command, const std::string& name,
                                       const std::string& key = {});

// "codesim <command>: <line>" on stderr, only when stderr is a terminal (long runs say where they
// are; logs and pipes stay clean).
void progress(std::string_view command, const std::string& line);

// A command's figures: JSON as it is, or a figure / value table.
void write_figures(const nlohmann::ordered_json& j, report::Format format, std::ostream& out);

}  // namespace codesim::cli
