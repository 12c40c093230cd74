// Points simulated in child processes (study::simulate_points), each record
// written atomically to OUT/points/point-NNNN.json as soon as it ends, so that a killed sweep or
// search resumes with the points done. Under mpirun the points are dealt round-robin over the
// ranks.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/cli/mpi_ranks.hpp"
#include "sim/study/sweep_plan.hpp"

namespace codesim::cli {

struct PointRunOptions {
  std::string command;  // for progress lines: "sweep", "search"
  std::string out_dir;
  int jobs = 2;
};

// Runs this rank's share of `points` (the k-th goes to rank k mod size) that no earlier run
// stored; returns the records (JSON text) of all its points. `describe` names a point's values.
std::vector<std::string> run_points(
    const std::vector<const study::PlannedPoint*>& points, const PointRunOptions& o,
    const MpiRanks& ranks, const std::function<std::string(const study::PlannedPoint&)>& describe);

// The scenario file as a sweep or search ran it: its text, then a "# --set key=value" line per
// setting given on the command line (the report page shows it).
std::string scenario_as_run(const std::string& path, const std::vector<std::string>& settings);

// A stored record as the study reads it: the point's index, values, result or error.
study::PointOutcome outcome_of(const nlohmann::ordered_json& record);

}  // namespace codesim::cli
