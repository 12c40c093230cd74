// --node-limit on the model's gate.
#include "sim/cli/gate_flags.hpp"

#include <string>

#include "sim/cli/usage.hpp"

namespace codesim::cli {

void apply_node_limit(kernels::GateSpec& gate, int node_limit, std::string_view command) {
  if (node_limit == 0) {
    return;
  }
  if (node_limit < 1 || node_limit > gate.groups) {
    const std::string groups = std::to_string(gate.groups);
    throw_usage_error(command,
                      "the limit counts the expert groups a token may reach (the gate's " + groups +
                          "; one group is one node's experts only when EP spans " + groups +
                          " nodes): between 1 and " + groups + ", " + groups +
                          " for no limit, got " + std::to_string(node_limit),
                      "", "--node-limit");
  }
  gate.topk_groups = node_limit;
}

}  // namespace codesim::cli
