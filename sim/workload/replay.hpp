// Replaying a measured StepTrace with other kernel times: a list schedule over the op DAG in
// which each op starts when its stream predecessor and its dependencies are done, plus the idle
// time it measurably waited beyond them (launch gaps, waits the trace does not show), so that the
// measured overlap structure is kept. With the measured durations it reproduces the measurement.
#pragma once

#include <vector>

#include "models/hardware/hardware_spec.hpp"
#include "sim/workload/step_trace.hpp"
#include "sim/workload/timeline.hpp"

namespace codesim::workload {

// Ops must carry measured start and duration; `duration_us` gives the new one per op.
Timeline replay(const StepTrace& t, const std::vector<double>& duration_us);

// Each op's time moved from the GPU it was measured on to `target` by the roofline: tensor-core
// classes (GEMMs, attention) by the ratio of dense peaks for their dtype, memory-bound classes by
// the ratio of HBM bandwidths; communication keeps its measured time (the network is the engine's).
// The kernels' shapes are not recovered here, so per-kernel efficiencies carry over unchanged.
std::vector<double> scaled_durations(const StepTrace& t, const hardware::GpuSpec& measured_on,
                                     const hardware::GpuSpec& target);

}  // namespace codesim::workload
