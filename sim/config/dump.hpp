// Writes a resolved scenario (presets and includes applied, units normalized) as YAML or JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "sim/config/scenario.hpp"

namespace codesim::config {

// YAML that loads back into the same scenario: quantities in canonical units ("160GBps").
std::string to_yaml(const Scenario& s);

// JSON with schema_version; quantities as numbers in their SI base unit (B, s, B/s, FLOP/s).
nlohmann::ordered_json to_json(const Scenario& s);

}  // namespace codesim::config
