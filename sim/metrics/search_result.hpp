// What a search gives: per candidate configuration, its values, why it was rejected or what the
// fast tier and (for the best ones) the full simulation made of it. Plain data; sim/study fills
// it, sim/report writes it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/metrics/run_result.hpp"

namespace codesim::metrics {

struct SearchEntry {
  std::vector<std::string> values;  // one per searched key, as written
  bool base = false;                // the scenario as written (its own values of the keys)
  std::string rejected;             // why it was not simulated or fails a bound; empty if kept
  std::optional<RunResult> fast;    // the screening
  std::optional<RunResult> full;    // the full simulation (the top configurations)
  std::string full_error;           // why the full simulation failed
  // The objective from the best tier that ran (full over fast); 0 when rejected.
  double objective = 0;
};

struct SearchResult {
  std::string scenario;   // the base scenario's name
  std::string objective;  // "tokens_per_day" or "tokens_per_day_per_usd"
  std::optional<double> max_network_usd;
  int top = 0;                       // how many were simulated in full
  std::vector<std::string> keys;     // the searched key paths
  std::vector<SearchEntry> entries;  // best first: kept ones by objective, then the rejected
};

}  // namespace codesim::metrics
