// Limits a study refuses to exceed, checked before the work starts: a run that would not fit is
// an input error naming what to reduce, never an out-of-memory kill.
#pragma once

#include "sim/core/units.hpp"

namespace codesim::study {

struct Budget {
  long long max_tasks = 5'000'000;                        // tasks of a step program
  core::Bytes max_platform_memory = core::Bytes(4096e6);  // the SimGrid platform's estimate
};

}  // namespace codesim::study
