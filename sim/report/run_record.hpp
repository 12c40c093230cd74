// A simulated step complete, for passing it between processes (a study's isolated points): the
// JSON report (run_report.hpp) plus what the report leaves out, each rank's lanes.
#pragma once

#include <nlohmann/json.hpp>

#include "sim/metrics/run_result.hpp"

namespace codesim::report {

// {"run": run_json(r), "lanes": [{compute: [[start, end, kind]...], comm: [[start, end, group]...],
// exposed: [...]} per rank]}; kinds and groups as their enum values.
nlohmann::ordered_json run_record_json(const metrics::RunResult& r);

// The inverse. Throws nlohmann's exceptions on a malformed record.
metrics::RunResult run_from_record(const nlohmann::ordered_json& j);

}  // namespace codesim::report
