// The pipeline schedule as a scenario's schedule: section gives it. parameters.hpp declares
// each key with its doc and default (the struct's own).
#pragma once

#include "sim/workload/schedule.hpp"

namespace codesim::workload {

struct ScheduleSpec {
  ScheduleMethod method = ScheduleMethod::one_f_one_b;
  int virtual_stages = 1;         // interleaved-1f1b: stages per pipeline rank
  int micro_batch_sequences = 1;  // per data-parallel rank
};

}  // namespace codesim::workload
