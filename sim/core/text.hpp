// Small text helpers: edit distance for did-you-mean suggestions, joining.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace codesim::core {

// Levenshtein distance (insert, delete, substitute each cost 1).
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word` if it is close enough to be a likely typo (distance at most
// max(1, |word| / 4)); empty otherwise.
std::string closest_match(std::string_view word, std::span<const std::string> candidates);

// v with `digits` digits after the point: fixed(3.14159, 2) = "3.14".
std::string fixed(double v, int digits);

// Bytes as megabytes, with a decimal below 10 MB (small test platforms): "0.6", "4096".
std::string megabytes(double bytes);

std::string join(std::span<const std::string> parts, std::string_view separator);

// A duration for a message, three significant digits in the unit that reads best: "375 ms",
// "20.2 s", "20.2 min", "3.36 h".
std::string duration_text(double seconds);

// Text a user gave, quoted for an error message: 'text', or its first 60 characters, one line,
// then "... (N characters)" when longer (a file read by mistake is not echoed whole).
std::string quoted_excerpt(std::string_view text);

// The pieces of `text` between `separator`s, empty pieces kept: split("a,,b", ',') = a, "", b.
std::vector<std::string> split(std::string_view text, char separator);

// The whole content of a file; empty when it cannot be read (callers that must tell a missing
// file apart check first).
std::string read_file(const std::string& path);

}  // namespace codesim::core
