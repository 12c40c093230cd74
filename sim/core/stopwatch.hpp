// Wall-clock phase timings (what `--bench` modes print).
#pragma once

#include <chrono>

namespace codesim::core {

// Seconds elapsed since `start`, by the steady clock.
inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace codesim::core
