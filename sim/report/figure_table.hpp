// A JSON object as a two-column "figure / value" table for the terminal: strings as they are,
// numbers and objects as JSON, arrays over 16 values shortened to their first 8.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace codesim::report {

std::string figure_table(const nlohmann::ordered_json& j);

}  // namespace codesim::report
