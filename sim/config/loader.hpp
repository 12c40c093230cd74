// YAML scenario -> typed Scenario: decode every field by the schema, apply defaults and presets,
// check ranges and cross-field rules; every problem is collected before failing.
#pragma once

#include <map>
#include <string>

#include "sim/config/scenario.hpp"
#include "sim/core/error.hpp"

namespace codesim::config {

// Throws core::InputError with every problem found.
Scenario load_scenario(const std::string& path);

// The same for text in memory (tests, fuzzing); includes resolve against `path`'s directory.
Scenario load_scenario_text(const std::string& text, const std::string& path);

// Cross-field rules over a decoded scenario. `where` gives the location of each key that was
// written in a file (keys left to defaults have none).
std::vector<core::Diagnostic> check_rules(const Scenario& s,
                                          const std::map<std::string, core::SourceLocation>& where);

}  // namespace codesim::config
