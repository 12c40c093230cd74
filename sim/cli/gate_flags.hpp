// The routing flags every routing command shares: --node-limit on the model's gate.
#pragma once

#include <string_view>

#include "models/kernels/gate.hpp"

namespace codesim::cli {

// Applies --node-limit (0: the model's own) to `gate`, or throws a usage error for `command`.
// The gate limits expert groups, not nodes: a group is one node's experts only when the EP
// group spans as many nodes as the model has groups (DeepSeek-V3: 8 groups, EP64 on 8 nodes).
void apply_node_limit(kernels::GateSpec& gate, int node_limit, std::string_view command);

}  // namespace codesim::cli
