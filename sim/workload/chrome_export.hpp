// Chrome trace export of a timeline: one process per GPU (rank), one thread per stream, each op a
// complete ("X") slice whose args carry its class, tags and id; loads in Perfetto and
// chrome://tracing, and back into codesim (cat "kernel", args.stream).
#pragma once

#include <nlohmann/json.hpp>

#include "sim/workload/step_trace.hpp"
#include "sim/workload/timeline.hpp"

namespace codesim::workload {

nlohmann::ordered_json chrome_trace(const StepTrace& t, const Timeline& timeline);

}  // namespace codesim::workload
