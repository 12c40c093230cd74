// JSON and terminal writers of a sweep (metrics::SweepResult).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/metrics/sweep_result.hpp"

namespace codesim::report {

// {key: value} of a point's (or a configuration's) varied keys.
nlohmann::ordered_json values_json(const std::vector<std::string>& keys,
                                   const std::vector<std::string>& values);

// Keys: schema_version, scenario, mode, keys, points [{point, values {key: value}, result (the
// run report, report/run_report.hpp) or null, error}].
nlohmann::ordered_json sweep_json(const metrics::SweepResult& s);

// One row per point: the varied values, step time, tokens/day, MFU, or the error.
std::string sweep_table(const metrics::SweepResult& s);

}  // namespace codesim::report
