// Report formats and number formatting (one implementation, in core, for the notes models write
// too).
#pragma once

#include <array>
#include <string_view>
#include <utility>

#include "sim/core/text.hpp"

namespace codesim::report {

using core::fixed;

enum class Format { table, json, csv, md, html };

inline constexpr std::array kFormatNames = {
    std::pair{Format::table, std::string_view("table")},
    std::pair{Format::json, std::string_view("json")},
    std::pair{Format::csv, std::string_view("csv")},
    std::pair{Format::md, std::string_view("md")},
    std::pair{Format::html, std::string_view("html")},
};

}  // namespace codesim::report
