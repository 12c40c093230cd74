// The single node: one NVLink domain, no scale-out network.
#include <string>

#include "topologies/family.hpp"
#include "topologies/fat_tree.hpp"

namespace codesim::topologies {
namespace {

long long node_capacity(const NetworkSpec&) {
  return 0;
}

void node_problems(const NetworkSpec&, int nodes, int, std::vector<SpecProblem>& p) {
  if (nodes != 1) {
    p.push_back({"family", "a single node has no network; " + std::to_string(nodes) +
                               " nodes need one (ft2, mpft, ...)"});
  }
}

Topology node_build(const NetworkSpec&, const NodeSpec& node, int) {
  return build_single_node(node);
}

FamilyForm node_form(const NetworkSpec&, const NodeSpec&, long long) {
  return {};
}

}  // namespace

extern const FamilyDescriptor kNodeFamily = {
    .family = Family::node,
    .name = "node",
    .alias = "",
    .summary = "one node: its GPUs joined by NVLink, no scale-out network",
    .reads = {},
    .network = false,
    .capacity = node_capacity,
    .problems = node_problems,
    .build = node_build,
    .closed_form = node_form,
};

}  // namespace codesim::topologies
