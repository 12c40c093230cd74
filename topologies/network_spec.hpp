// Which network joins the nodes, and its size parameters: one plain struct for every family, and
// one table of those parameters (their scenario keys, ranges and meaning). Which family reads
// which parameter is in the family registry (family.hpp).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace codesim::topologies {

// The families; each has its descriptor in the registry (family.hpp), names included.
enum class Family { node, ft2, ft3, mrft, mpft, slimfly, dragonfly };

// How an MPFT packet reaches a GPU of another index on another node (spec: it must cross NVLink
// once, on one side or the other).
enum class PlaneCrossing { at_source, at_destination };
inline constexpr std::array kPlaneCrossingNames = {
    std::pair{PlaneCrossing::at_source, std::string_view("at-source")},
    std::pair{PlaneCrossing::at_destination, std::string_view("at-destination")}};
constexpr const auto& spellings(PlaneCrossing) {
  return kPlaneCrossingNames;
}

struct NetworkSpec {
  Family family = Family::node;
  int radix = 64;  // fat trees, MRFT, MPFT: switch ports
  int planes = 1;  // MPFT: one per GPU of a node
  // Fat trees, MRFT, MPFT: 1:R at the top tier (leaf uplinks of a two-layer tree, FT3's
  // aggregation-to-core uplinks); 1 is full bisection.
  int oversubscription = 1;
  int slimfly_q = 0;             // Slim Fly: MMS parameter, a prime
  int endpoints_per_router = 0;  // Slim Fly and Dragonfly: endpoints per router (p)
  int dragonfly_a = 0;           // routers per group
  int dragonfly_h = 0;           // global links per router
  int dragonfly_groups = 0;
  PlaneCrossing plane_crossing = PlaneCrossing::at_source;
};

// One integer size parameter of a network: its name (the scenario key under `topology.`, the CLI
// flag with dashes), the member it sets, its range and what it means.
struct NetworkParameter {
  std::string_view name;
  int NetworkSpec::*member;
  int min;
  std::optional<int> max;  // none: no upper bound
  std::string_view doc;
};
inline constexpr std::array kNetworkParameters = {
    NetworkParameter{"planes", &NetworkSpec::planes, 1, 64,
                     "Network planes (mpft: one per GPU index of a node)."},
    NetworkParameter{"switch_radix", &NetworkSpec::radix, 4, 1024, "Ports per switch."},
    NetworkParameter{"slimfly_q", &NetworkSpec::slimfly_q, 0, std::nullopt,
                     "Slim Fly MMS parameter q, a prime: 2q^2 routers."},
    NetworkParameter{"endpoints_per_router", &NetworkSpec::endpoints_per_router, 0, std::nullopt,
                     "Endpoints (NICs) per router, p."},
    NetworkParameter{"dragonfly_a", &NetworkSpec::dragonfly_a, 0, std::nullopt,
                     "Routers per group, a."},
    NetworkParameter{"dragonfly_h", &NetworkSpec::dragonfly_h, 0, std::nullopt,
                     "Global links per router, h."},
    NetworkParameter{"dragonfly_groups", &NetworkSpec::dragonfly_groups, 0, std::nullopt,
                     "Groups, at most a x h + 1."},
    NetworkParameter{"oversubscription", &NetworkSpec::oversubscription, 1, std::nullopt,
                     "1:R at the top tier (a two-layer tree's leaf uplinks, ft3's "
                     "aggregation-to-core uplinks; Llama 3's cluster: 7); 1 is full bisection."},
};

// A problem with one parameter of a spec: which one and why.
struct SpecProblem {
  std::string parameter;  // "switch_radix", "planes", "slimfly_q", ... or "nodes", "family"
  std::string message;
};

// Endpoints (NICs) the network can attach at most.
long long endpoint_capacity(const NetworkSpec& s);

// Everything wrong with building `s` for `nodes` nodes of `gpus_per_node` GPUs: a parameter the
// family does not read set away from its default, the family's own checks, the capacity.
std::vector<SpecProblem> validate(const NetworkSpec& s, int nodes, int gpus_per_node);

}  // namespace codesim::topologies
