// Wall-clock phase timings and the process's peak memory (what `--bench` modes print).
#pragma once

#include <chrono>

namespace codesim::core {

// Seconds elapsed since `start`, by the steady clock.
inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The process's peak resident memory so far, in MB (getrusage; 0 where the system does not say).
double peak_resident_mb();

// The process's resident memory now, in MB (/proc/self/statm; 0 where there is none).
double resident_mb();

}  // namespace codesim::core
