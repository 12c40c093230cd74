// An ASCII chart of a timed pipeline schedule, one row per rank, like the DualPipe figure:
//
//   rank 0 |F0 |F1 |F2 |F3 |F20|F4 |F21|F5 |...
//   rank 1 ....|F0 |F1 |F2 |F20|F3 |F21|...
//
// F<n> forward, B<n> whole backward, b<n> its input part, W<n> a weight part, F<n>+B<m> an
// overlapped pair, '.' idle. Micro-batches of direction 1 are numbered after those of
// direction 0 (C/2 .. C-1).
#pragma once

#include <string>

#include "sim/workload/schedule_timing.hpp"

namespace codesim::workload {

// `chars_per_second` sets the time scale; a cell shorter than its label shows what fits.
std::string schedule_chart(const PipelineSchedule& s, const ScheduleTiming& t,
                           double chars_per_second);

// The label of a chunk as the chart writes it ("F3", "b12", "F4+B9").
std::string chunk_label(const PipelineSchedule& s, const Chunk& c);

}  // namespace codesim::workload
