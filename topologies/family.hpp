// The topology family registry: one descriptor per family says what the family reads (its scenario
// keys), how a spec of it is checked, how it is built and counted in closed form, and which
// routing it allows. Validation (network_spec.cpp), building (build.cpp), the closed forms
// (properties.cpp), the scenario rules and the CLI's network flags all ask the registry; none
// names a family. A new family is one file defining its descriptor plus one row in family.cpp's
// table (and its value in `Family`).
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "topologies/network_spec.hpp"
#include "topologies/topology.hpp"

namespace codesim::topologies {

// A family's closed-form counts for a network joining `nodes` nodes (one NIC per GPU).
struct FamilyForm {
  long long switches = 0;
  long long switch_links = 0;
  int diameter = 0;  // switch-to-switch links on the longest shortest endpoint-to-endpoint route
  bool bisection_exact = true;  // false: the cut below is an estimate
  double cut_links = 0;         // NIC links' worth crossing the worst balanced cut
};

struct FamilyDescriptor {
  Family family;
  std::string_view name;   // as scenarios and reports write it
  std::string_view alias;  // a shorter spelling the CLI takes too, or empty
  std::string_view summary;
  // The parameters of kNetworkParameters it reads (by name); the others must stay at their
  // defaults. Every family reads topology.plane_crossing only when it reads planes.
  std::span<const std::string_view> reads;
  bool network = true;          // false: one node, no scale-out network
  bool detour_routing = false;  // valiant and ugal apply (routers with direct links)
  // Router links inside a group and between groups are tiers of their own (Vertex::group).
  bool grouped_routers = false;
  // Endpoints it can attach at most.
  long long (*capacity)(const NetworkSpec&) = nullptr;
  // Problems of the spec alone, given the cluster's size (nodes of gpus_per_node GPUs).
  void (*problems)(const NetworkSpec&, int nodes, int gpus_per_node,
                   std::vector<SpecProblem>&) = nullptr;
  // Problems once the endpoints fit the capacity (may be null).
  void (*fit_problems)(const NetworkSpec&, int nodes, int gpus_per_node,
                       std::vector<SpecProblem>&) = nullptr;
  Topology (*build)(const NetworkSpec&, const NodeSpec&, int nodes) = nullptr;
  FamilyForm (*closed_form)(const NetworkSpec&, const NodeSpec&, long long nodes) = nullptr;

  bool reads_parameter(std::string_view parameter) const;
};

// Every family, in the order of `Family`.
std::span<const FamilyDescriptor* const> families();
const FamilyDescriptor& descriptor(Family f);

std::string_view family_name(Family f);
// Every family with its name, for the scenario decoder's enum table.
const std::vector<std::pair<Family, std::string_view>>& family_names();
inline const auto& spellings(Family) {
  return family_names();
}
// A family by its name or alias; none for an unknown one.
std::optional<Family> family_from_name(std::string_view name);
// "node, ft2, ft3, mrft, mpft, slimfly (sf), dragonfly (df)"
std::string family_choices();
// The names of the families for which `pick` holds, in registry order.
std::vector<std::string> family_names_if(const std::function<bool(const FamilyDescriptor&)>& pick);
// "ft2, ft3, mrft, mpft": the families that read `parameter`.
std::string families_reading(std::string_view parameter);

}  // namespace codesim::topologies
