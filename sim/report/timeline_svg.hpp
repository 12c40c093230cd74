// The replayed step as a timeline, as the DualPipe figure draws a schedule: one row per pipeline
// rank with its compute lane (chunks coloured by kind: F, B, W, overlapped F&B, optimizer) and its
// communication lane (EP, PP, DP), exposed communication marked in black under it. Inline SVG, no
// scripts; every chunk has a tooltip (<title>) with its times.
#pragma once

#include <string>
#include <vector>

#include "sim/metrics/pipeline_lanes.hpp"

namespace codesim::report {

std::string timeline_svg(const std::vector<metrics::RankLanes>& ranks, core::Seconds step);

}  // namespace codesim::report
