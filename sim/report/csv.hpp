// CSV (RFC 4180) rows; the studies' tables as CSV: frame_csv (report/frame.hpp).
#pragma once

#include <string>
#include <vector>

namespace codesim::report {

// One CSV line (RFC 4180: a field quoted when it holds a comma, a quote or a line break; CRLF).
std::string csv_row(const std::vector<std::string>& cells);

}  // namespace codesim::report
