// Edit distance and did-you-mean.
#include "sim/core/text.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <sstream>
#include <utility>

namespace codesim::core {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const std::size_t substitute = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, substitute});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string closest_match(std::string_view word, std::span<const std::string> candidates) {
  const std::size_t limit = std::max<std::size_t>(1, word.size() / 4);
  std::string best;
  std::size_t best_distance = limit + 1;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

std::string fixed(double v, int digits) {
  // As long as the number needs (1e300 has 301 digits before the point).
  const int n = std::snprintf(nullptr, 0, "%.*f", digits, v);
  std::string out(static_cast<std::size_t>(std::max(n, 0)), '\0');
  std::snprintf(out.data(), out.size() + 1, "%.*f", digits, v);
  return out;
}

std::string megabytes(double bytes) {
  return fixed(bytes / 1e6, bytes < 1e7 ? 1 : 0);
}

std::string join(std::span<const std::string> parts, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) {
      out += separator;
    }
    out += parts[i];
  }
  return out;
}

std::string duration_text(double seconds) {
  const auto [value, unit] = seconds < 1      ? std::pair{seconds * 1e3, "ms"}
                             : seconds < 120  ? std::pair{seconds, "s"}
                             : seconds < 7200 ? std::pair{seconds / 60, "min"}
                                              : std::pair{seconds / 3600, "h"};
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g %s", value, unit);
  return buffer;
}

std::string quoted_excerpt(std::string_view text) {
  constexpr std::size_t kShown = 60;
  const std::size_t line_end = text.find('\n');
  if (text.size() <= kShown && line_end == std::string_view::npos) {
    return "'" + std::string(text) + "'";
  }
  return "'" + std::string(text.substr(0, std::min(kShown, line_end))) + "' ... (" +
         std::to_string(text.size()) + " characters)";
}

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const auto at = text.find(separator, start);
    out.emplace_back(
        text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) {
      return out;
    }
    start = at + 1;
  }
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace codesim::core
