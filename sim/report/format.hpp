// Number formatting for reports.
#pragma once

#include <string>

namespace codesim::report {

// v with `digits` digits after the point: fixed(3.14159, 2) = "3.14".
std::string fixed(double v, int digits);

}  // namespace codesim::report
