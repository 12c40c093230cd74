// Comparing scenarios: every one loads and is checked before any is simulated, then each one's
// network cost and training throughput, the figures codesim compare puts side by side.
#pragma once

#include <string>
#include <vector>

#include "sim/config/scenario.hpp"
#include "sim/metrics/comparison.hpp"

namespace codesim::study {

// Throws core::InputError for the first scenario that does not load (fewer than two is the
// caller's usage error).
std::vector<config::Scenario> load_compared(const std::vector<std::string>& files);

metrics::ComparedScenario compared(const std::string& file, const metrics::RunResult& r);

}  // namespace codesim::study
