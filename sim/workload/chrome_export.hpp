// Chrome trace export of a timeline: one process per GPU (rank), one thread per stream, each op a
// complete ("X") slice whose args carry its class, tags and id; loads in Perfetto and
// chrome://tracing, and back into codesim (cat "kernel", args.stream).
#pragma once

#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "sim/workload/step_trace.hpp"
#include "sim/workload/timeline.hpp"

namespace codesim::workload {

// A GPU's power and clock over the step, as the governor set them (step_power.hpp): counter tracks
// beside its slices.
struct PowerTrack {
  int rank = 0;
  double clock_mhz = 0;
  double computing_w = 0;  // the board's mean power while its compute stream runs
  double waiting_w = 0;    // awake, between its computations
};

// A GPU's memory over the step (metrics::RankMemory): bytes held from each time on.
struct MemoryTrack {
  int rank = 0;
  std::vector<std::pair<double, double>> points;  // (microseconds, bytes), in time order
};

// `power`: per rank with a power model (empty: no counter tracks). Its counters are "SM clock
// (MHz)" at the start and end of the step and "board power (W)" stepping between computing_w over
// each op of stream 0 (compute) and waiting_w between them. `memory`: a "memory (GB)" counter
// per rank at each of its points.
nlohmann::ordered_json chrome_trace(const StepTrace& t, const Timeline& timeline,
                                    const std::vector<PowerTrack>& power = {},
                                    const std::vector<MemoryTrack>& memory = {});

}  // namespace codesim::workload
