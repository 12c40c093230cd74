// The `sweep:` section of a scenario: which keys vary, over which values, combined how. Every
// point is a list of settings applied on top of the scenario (config/loader.hpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/config/loader.hpp"
#include "sim/config/yaml_source.hpp"
#include "sim/core/sweep_mode.hpp"

namespace codesim::config {

using core::sweep_mode_name;
using core::SweepMode;

// One varied key and its values in order.
struct SweepAxis {
  std::string key;
  std::vector<Setting> values;
};

struct Sweep {
  SweepMode mode = SweepMode::cartesian;
  std::vector<SweepAxis> axes;               // in the order written
  std::vector<std::vector<Setting>> points;  // one setting per axis; the last axis varies fastest
};

// The sweep the scenario file declares, or none. Checks its shape (mode, known key paths, lists
// not empty, ranges well formed, zip lengths equal); throws core::InputError with every problem.
// Whether each point then decodes is load_sweep_points' job.
std::optional<Sweep> read_sweep(const FlatScenario& flat);

// Key paths with their values, combined every way, from a section at `prefix` (a search's
// `search.keys`): read_sweep's rules without a mode. Throws core::InputError.
Sweep read_axes(const Entry& section, const std::string& prefix);

// Decodes every point of `sweep` over `flat` before any runs: a wrong unit or an out-of-range
// value in any point fails here, with its location in the sweep. Throws core::InputError.
std::vector<Scenario> load_sweep_points(const FlatScenario& flat, const std::string& path,
                                        const Sweep& sweep);

}  // namespace codesim::config
