// Which network joins the nodes, and its size parameters: one plain struct for every family.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace codesim::topologies {

enum class Family { node, ft2, ft3, mrft, mpft, slimfly, dragonfly };
std::string_view family_name(Family f);

// How an MPFT packet reaches a GPU of another index on another node (spec: it must cross NVLink
// once, on one side or the other).
enum class PlaneCrossing { at_source, at_destination };

struct NetworkSpec {
  Family family = Family::node;
  int radix = 64;                // fat trees, MRFT, MPFT: switch ports
  int planes = 1;                // MPFT: one per GPU of a node
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

// A problem with one parameter of a spec: which one and why.
struct SpecProblem {
  std::string parameter;  // "radix", "planes", "slimfly_q", ...
  std::string message;
};

// Endpoints (NIC ports) the network can attach at most.
long long endpoint_capacity(const NetworkSpec& s);

// Everything wrong with building `s` for `nodes` nodes of `gpus_per_node` GPUs.
std::vector<SpecProblem> validate(const NetworkSpec& s, int nodes, int gpus_per_node);

}  // namespace codesim::topologies
