// The process's peak resident memory (stopwatch.hpp).
#include "sim/core/stopwatch.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <fstream>

namespace codesim::core {

double peak_resident_mb() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) {
    return 0;
  }
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux reports KiB
}

double resident_mb() {
  std::ifstream statm("/proc/self/statm");
  double pages = 0;
  double resident = 0;
  if (!(statm >> pages >> resident)) {
    return 0;
  }
  return resident * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

}  // namespace codesim::core
