// Parsing and printing of quantities as users write them: "400Gbps", "160 GB/s", "1.5us", "141GiB".
#pragma once

#include <string>
#include <string_view>

#include "sim/core/units.hpp"

namespace codesim::core {

// What a quantity measures; decides which units are accepted.
enum class Dimension { bytes, seconds, flops, bytes_per_second, flops_per_second };

// "size", "duration", ... as used in messages.
std::string_view dimension_noun(Dimension d);
// The SI base unit the value is stored in: "B", "s", "FLOP", "B/s", "FLOP/s".
std::string_view base_unit(Dimension d);
// Examples of valid spellings, for hints: "50GBps, 400Gbps, 160 GB/s".
std::string_view unit_examples(Dimension d);

// Parses text into the base unit of `d`. Throws UnitError (a message without location; the caller
// adds file, line and key) on a bare number, an unknown unit, bits where bytes are wanted, a size
// where a rate is wanted, or a malformed number.
double parse_quantity(std::string_view text, Dimension d);

template <class Q>
Q parse_as(std::string_view text, Dimension d) {
  return Q(parse_quantity(text, d));
}

// The canonical spelling of a base-unit value, with the largest decimal prefix that keeps the
// mantissa >= 1, printed to round-trip exactly: 160e9 B/s -> "160GBps", 1.5e-6 s -> "1.5us".
std::string format_quantity(double base_value, Dimension d);

// Shortest decimal text that parses back to the same double.
std::string format_number(double v);

}  // namespace codesim::core
