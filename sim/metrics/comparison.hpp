// Scenarios side by side: each one's network and training throughput (codesim compare). Plain
// data; sim/study fills it, sim/report writes it.
#pragma once

#include <string>
#include <vector>

#include "sim/metrics/run_result.hpp"

namespace codesim::metrics {

struct ComparedScenario {
  std::string name;
  std::string file;
  NetworkUse network;
  double cost_per_endpoint_usd = 0;
  core::Seconds step_time;
  double tokens_per_day = 0;
  double mfu_causal = 0;
  double cost_per_tokens_per_day_usd = 0;  // network cost per (billion tokens per day)
  RunResult run;                           // the whole step report (breakdown, busiest links)
};

// The first is the base the others are compared with.
using Comparison = std::vector<ComparedScenario>;

}  // namespace codesim::metrics
