// Number formatting.
#include "sim/report/format.hpp"

#include <cstdio>

namespace codesim::report {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace codesim::report
