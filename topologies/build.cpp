// Family dispatch.
#include "topologies/build.hpp"

#include "topologies/dragonfly.hpp"
#include "topologies/fat_tree.hpp"
#include "topologies/slim_fly.hpp"

namespace codesim::topologies {
namespace {

std::string describe(const std::vector<SpecProblem>& problems) {
  std::string out;
  for (const auto& p : problems) {
    out += (out.empty() ? "" : "\n") + p.parameter + ": " + p.message;
  }
  return out;
}

}  // namespace

SpecError::SpecError(std::vector<SpecProblem> problems)
    : std::runtime_error(describe(problems)), problems_(std::move(problems)) {}

Topology build_topology(const NetworkSpec& s, const NodeSpec& node, int nodes) {
  if (auto problems = validate(s, nodes, node.gpus_per_node); !problems.empty()) {
    throw SpecError(std::move(problems));
  }
  switch (s.family) {
    case Family::node:
      return build_single_node(node);
    case Family::ft2:
      return build_fat_tree_2(s, node, nodes);
    case Family::ft3:
      return build_fat_tree_3(s, node, nodes);
    case Family::mrft:
      return build_multi_rail_fat_tree(s, node, nodes);
    case Family::mpft:
      return build_multi_plane_fat_tree(s, node, nodes);
    case Family::slimfly:
      return build_slim_fly(s, node, nodes);
    case Family::dragonfly:
      return build_dragonfly(s, node, nodes);
  }
  throw SpecError(std::vector<SpecProblem>{{"family", "unknown family"}});
}

}  // namespace codesim::topologies
