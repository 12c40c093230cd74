// The schema as users read it: `codesim describe` (table or JSON) and scenarios/SCHEMA.md.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/config/schema.hpp"

namespace codesim::config {

// One row per field: key, type, unit, default, description.
struct SchemaRow {
  std::string key;
  std::string type;
  std::string unit;
  std::string default_value;
  std::string doc;
};

std::vector<SchemaRow> schema_rows();
std::string schema_markdown();
nlohmann::ordered_json schema_json();

}  // namespace codesim::config
