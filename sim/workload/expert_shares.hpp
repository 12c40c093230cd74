// A run's routing as an inference input: how many token-expert pairs each routed expert took in
// each MoE layer (recorded from a model's router, e.g. tools/calibration/h200_moe_routing.py), as
// each layer's shares. JSON:
//   {"layers": [[pairs of expert 0, pairs of expert 1, ...], ...]}   one list per MoE layer
// Counts are non-negative numbers, at least one positive per layer; only their ratios count, so
// one recorded prefill prices any load.
#pragma once

#include <string>
#include <vector>

namespace codesim::workload {

// Each MoE layer's shares (summing to 1 per layer). Throws core::InputError at the file's line and
// column, under its key path ("layers[3][12]"), when the text is not such a file or does not have
// `moe_layers` lists of `experts` counts.
std::vector<std::vector<double>> parse_expert_counts(const std::string& text,
                                                     const std::string& file, int moe_layers,
                                                     int experts);

// The same from a file (at most 64 MiB).
std::vector<std::vector<double>> read_expert_counts(const std::string& path, int moe_layers,
                                                    int experts);

}  // namespace codesim::workload
