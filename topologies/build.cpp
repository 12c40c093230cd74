// Building a topology: validate the spec, then the family's builder (family.hpp).
#include "topologies/build.hpp"

#include "topologies/family.hpp"

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
  return descriptor(s.family).build(s, node, nodes);
}

}  // namespace codesim::topologies
