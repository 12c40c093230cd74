// How a sweep combines its keys' values: a scenario's `sweep.mode`, and what a sweep's results say
// they were (config parses it, metrics and the reports carry it).
#pragma once

#include <array>
#include <string_view>
#include <utility>

#include "sim/core/named.hpp"

namespace codesim::core {

enum class SweepMode {
  cartesian,  // every combination of the keys' values
  zip         // the i-th values of every key together
};

inline constexpr std::array kSweepModeNames{
    std::pair{SweepMode::cartesian, std::string_view("cartesian")},
    std::pair{SweepMode::zip, std::string_view("zip")}};

// "cartesian" or "zip", as a scenario writes it.
inline std::string_view sweep_mode_name(SweepMode m) {
  return name_in(kSweepModeNames, m);
}

}  // namespace codesim::core
