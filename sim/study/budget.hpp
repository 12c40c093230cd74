// Limits a study refuses to exceed, checked before the work starts: a run that would not fit is
// an input error naming what to reduce, never an out-of-memory kill.
#pragma once

#include "sim/core/units.hpp"

namespace codesim::study {

struct Budget {
  long long max_tasks = 5'000'000;                        // tasks of a step program
  core::Bytes max_platform_memory = core::Bytes(4096e6);  // the SimGrid platform's estimate
  long long max_serve_steps = 50'000'000;                 // steps of a serving run, all instances
};

}  // namespace codesim::study
