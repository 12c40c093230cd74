// The topologies of ISCA 2025 (arXiv 2505.09343) Table 3, with the figures it publishes, for
// `codesim topo --compare` (the published figures are printed beside codesim's, never used).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "topologies/network_spec.hpp"

namespace codesim::topologies {

struct PaperInstance {
  std::string name;  // ft2, mpft, ft3, sf, df
  NetworkSpec spec;
  long long nodes = 0;  // of 8 GPUs, one NIC each
  // Published: endpoints, switches, switch-to-switch links, cost (M$), cost per endpoint (k$).
  long long endpoints = 0;
  long long switches = 0;
  long long links = 0;
  double cost_musd = 0;
  double cost_per_endpoint_kusd = 0;
};

const std::vector<PaperInstance>& paper_instances();
std::optional<PaperInstance> find_paper_instance(std::string_view name);

}  // namespace codesim::topologies
