// The typed results Python gets: the C++ result structs themselves (metrics::RunResult as
// codesim.TrainingResult, metrics::InferenceResult as codesim.InferenceResult, their figures as
// attributes named and documented by the shared column schema, report/columns.hpp; ServeResult
// and CampaignResult with their scalar figures listed in results.cpp), and the studies' tables
// (report/frame.hpp) as columns and typed rows.
#pragma once

#include <pybind11/pybind11.h>

#include "sim/report/frame.hpp"

namespace codesim::python {

void bind_results(pybind11::module_& m);

// {"columns": [...], "rows": [[None | int | float | str, ...], ...]}.
pybind11::dict frame_object(const report::Frame& f);

// Row `i` of the frame as a dict (column -> value).
pybind11::dict frame_row(const report::Frame& f, std::size_t i);

}  // namespace codesim::python
