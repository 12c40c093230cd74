// Builds the topology a NetworkSpec describes, after validating it.
#pragma once

#include <stdexcept>
#include <vector>

#include "topologies/network_spec.hpp"
#include "topologies/topology.hpp"

namespace codesim::topologies {

// A spec that cannot be built; each problem names its parameter.
class SpecError : public std::runtime_error {
 public:
  explicit SpecError(std::vector<SpecProblem> problems);
  const std::vector<SpecProblem>& problems() const { return problems_; }

 private:
  std::vector<SpecProblem> problems_;
};

// Throws SpecError when validate() finds problems.
Topology build_topology(const NetworkSpec& s, const NodeSpec& node, int nodes);

}  // namespace codesim::topologies
