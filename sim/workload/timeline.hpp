// When each op of a StepTrace ran (measured) or would run (predicted), and the figures a
// timeline gives: busy time per stream, overlap of communication with computation, time per piece.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sim/workload/step_trace.hpp"

namespace codesim::workload {

struct Timeline {
  std::vector<double> start_us;  // per op, as in the trace's op order
  std::vector<double> duration_us;
};

// From the trace's measured start and duration; throws std::invalid_argument if an op has none.
Timeline measured_timeline(const StepTrace& t);

struct StreamSummary {
  int rank = 0;
  int stream = 0;
  int ops = 0;
  double busy_us = 0;  // union of its ops' intervals
};

struct GroupTime {
  int ops = 0;
  double time_us = 0;  // sum of durations
};

struct TimelineSummary {
  int ops = 0;
  int kernels = 0;     // ops that are not memory copies or sets
  int memory_ops = 0;  // class memcpy (copies and sets)
  double span_us = 0;
  std::vector<StreamSummary> streams;
  double communication_busy_us = 0;          // union of communication ops
  double compute_busy_us = 0;                // union of every other op
  double overlap_us = 0;                     // communication running while computation runs
  std::map<std::string, GroupTime> pieces;   // by piece tag ("" = untagged)
  std::map<std::string, GroupTime> classes;  // by kernel class
};

TimelineSummary summarize(const StepTrace& t, const Timeline& timeline);

}  // namespace codesim::workload
