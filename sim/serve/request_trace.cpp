#include "sim/serve/request_trace.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <utility>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/quantity_parse.hpp"

namespace codesim::serve {
namespace {

constexpr const char* kHeader = "timestamp_s,prompt_tokens,cached_tokens,output_tokens";
constexpr const char* kColumns[] = {"timestamp_s", "prompt_tokens", "cached_tokens",
                                    "output_tokens"};
// Tokens per request at most, as serve.arrivals.* allow (longer than any model's context).
constexpr double kMaxTokens = 10'000'000;
// A trace of a few million requests at ~40 bytes a line.
constexpr std::uintmax_t kMaxTraceBytes = std::uintmax_t{256} << 20;
// A trace spans at most a year of seconds from its start: a larger timestamp is most likely
// microseconds or seconds since the epoch, which would serve every request at once.
constexpr double kMaxTimestamp = 31'536'000;

[[noreturn]] void fail(const std::string& file, int line, int column, const std::string& key,
                       const std::string& message, const std::string& hint = {}) {
  throw core::InputError(core::Diagnostic{{file, line, column}, key, message, hint});
}

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  const auto e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

using Cells = std::vector<std::pair<std::string, int>>;

// A row's cells and the column each starts at.
Cells cells_of(const std::string& line) {
  Cells cells;
  for (std::size_t start = 0;;) {
    const std::size_t comma = line.find(',', start);
    const std::size_t end = comma == std::string::npos ? line.size() : comma;
    cells.emplace_back(trimmed(line.substr(start, end - start)), static_cast<int>(start) + 1);
    if (comma == std::string::npos) {
      break;
    }
    start = comma + 1;
  }
  return cells;
}

// The row's four values, each a finite number and, past the timestamp, whole tokens within bounds.
std::array<double, 4> numbers_of(const Cells& cells, const std::string& file, int number) {
  std::array<double, 4> values{};
  for (int c = 0; c < 4; ++c) {
    const auto& [cell, column] = cells[static_cast<std::size_t>(c)];
    const char* end = cell.data() + cell.size();
    const auto [ptr, ec] = std::from_chars(cell.data(), end, values[c]);
    if (cell.empty() || ec != std::errc() || ptr != end) {
      fail(file, number, column, kColumns[c], "'" + cell + "' is not a number");
    }
    if (!std::isfinite(values[c])) {
      fail(file, number, column, kColumns[c], "'" + cell + "' is not a finite number");
    }
    if (c > 0 && values[c] != std::floor(values[c])) {
      fail(file, number, column, kColumns[c], "'" + cell + "' is not a whole number of tokens");
    }
    if (c > 0 && values[c] > kMaxTokens) {
      fail(file, number, column, kColumns[c],
           "'" + cell + "' tokens: a request has at most 10000000");
    }
  }
  return values;
}

// A request's own rules: time moves forward within a year, a prompt and an output of a token at
// least, no more cached tokens than the prompt has.
void check_request(const std::array<double, 4>& values, const Cells& cells, double last,
                   const std::string& file, int number) {
  const auto column_of = [&](int c) { return cells[static_cast<std::size_t>(c)].second; };
  if (values[0] < 0) {
    fail(file, number, column_of(0), kColumns[0], "a timestamp cannot be negative");
  }
  if (values[0] > kMaxTimestamp) {
    fail(file, number, column_of(0), kColumns[0],
         "'" + cells[0].first + "' s: a trace spans at most 31536000 s (a year)",
         "timestamps are seconds from the trace's start, not since the epoch");
  }
  if (values[0] < last) {
    fail(file, number, column_of(0), kColumns[0],
         "timestamps must not go back (" + cells[0].first + " s after " +
             core::format_number(last) + " s)",
         "sort the trace by timestamp");
  }
  if (values[1] < 1) {
    fail(file, number, column_of(1), kColumns[1], "a prompt has at least 1 token");
  }
  if (values[2] < 0 || values[2] > values[1]) {
    fail(file, number, column_of(2), kColumns[2],
         "cached tokens must be between 0 and the prompt's tokens");
  }
  if (values[3] < 1) {
    fail(file, number, column_of(3), kColumns[3], "a request generates at least 1 token");
  }
}

}  // namespace

std::vector<Request> parse_request_trace(const std::string& text, const std::string& file) {
  std::istringstream in(text);
  std::string line;
  int number = 0;
  bool header = false;
  std::vector<Request> out;
  double last = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::string row = trimmed(line);
    if (row.empty() || row.front() == '#') {
      continue;
    }
    if (!header) {
      if (row != kHeader) {
        fail(file, number, 1, "",
             "the first line must be the header '" + std::string(kHeader) + "'");
      }
      header = true;
      continue;
    }
    const Cells cells = cells_of(line);
    if (cells.size() != 4) {
      fail(file, number, 1, "",
           std::to_string(cells.size()) + " values where a request has 4: " + kHeader);
    }
    const std::array<double, 4> values = numbers_of(cells, file, number);
    check_request(values, cells, last, file, number);
    last = values[0];
    out.push_back({core::Seconds(values[0]), static_cast<int>(values[1]),
                   static_cast<int>(values[2]), static_cast<int>(values[3])});
  }
  if (out.empty()) {
    fail(file, std::max(number, 1), 1, "", "the trace holds no request",
         "a header line '" + std::string(kHeader) + "', then one request per line");
  }
  return out;
}

std::vector<Request> read_request_trace(const std::string& path) {
  return parse_request_trace(core::read_input_file(path, "the trace file", kMaxTraceBytes), path);
}

}  // namespace codesim::serve
