// libFuzzer target: quantity parsing for every dimension, and printing round trips.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "sim/core/error.hpp"
#include "sim/core/quantity_parse.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  using codesim::core::Dimension;
  for (auto d : {Dimension::bytes, Dimension::seconds, Dimension::flops,
                 Dimension::bytes_per_second, Dimension::flops_per_second}) {
    try {
      const double v = codesim::core::parse_quantity(text, d);
      // What parses prints back to the same value.
      if (std::isfinite(v) &&
          codesim::core::parse_quantity(codesim::core::format_quantity(v, d), d) != v) {
        std::abort();
      }
    } catch (const codesim::core::UnitError&) {
    }
  }
  return 0;
}
