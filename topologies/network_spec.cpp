// Spec validation, the same for every family: parameters the family does not read, the family's
// own checks (its descriptor), the capacity.
#include "topologies/network_spec.hpp"

#include "topologies/family.hpp"

namespace codesim::topologies {
namespace {

std::string n(long long v) {
  return std::to_string(v);
}

// A parameter the family does not read must keep its default: a value given for another family
// would otherwise be ignored without a word.
void unread_problems(const NetworkSpec& s, std::vector<SpecProblem>& p) {
  const FamilyDescriptor& family = descriptor(s.family);
  const NetworkSpec defaults;
  for (const NetworkParameter& parameter : kNetworkParameters) {
    const int value = s.*parameter.member;
    const int fallback = defaults.*parameter.member;
    if (!family.reads_parameter(parameter.name) && value != fallback) {
      p.push_back({std::string(parameter.name), "only " + families_reading(parameter.name) +
                                                    " read it; " + std::string(family.name) +
                                                    " takes the default " + n(fallback) + ", got " +
                                                    n(value)});
    }
  }
}

}  // namespace

long long endpoint_capacity(const NetworkSpec& s) {
  return descriptor(s.family).capacity(s);
}

std::vector<SpecProblem> validate(const NetworkSpec& s, int nodes, int gpus_per_node) {
  std::vector<SpecProblem> p;
  const FamilyDescriptor& family = descriptor(s.family);
  unread_problems(s, p);
  family.problems(s, nodes, gpus_per_node, p);
  if (!p.empty() || !family.network) {
    return p;
  }
  const long long endpoints = static_cast<long long>(nodes) * gpus_per_node;
  const long long capacity = family.capacity(s);
  if (endpoints > capacity) {
    p.push_back({"nodes", n(nodes) + " nodes x " + n(gpus_per_node) + " GPUs = " + n(endpoints) +
                              " endpoints exceed the " + std::string(family.name) + "'s " +
                              n(capacity)});
  } else if (family.fit_problems != nullptr) {
    family.fit_problems(s, nodes, gpus_per_node, p);
  }
  return p;
}

}  // namespace codesim::topologies
