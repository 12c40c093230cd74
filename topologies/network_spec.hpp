// Which network joins the nodes, and its size parameters: one plain struct for every family.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace codesim::topologies {

enum class Family { node, ft2, ft3, mrft, mpft, slimfly, dragonfly };
// Every family by the name scenarios and reports write, in one table (the schema reads it too).
inline constexpr std::array kFamilyNames = {
    std::pair{Family::node, std::string_view("node")},
    std::pair{Family::ft2, std::string_view("ft2")},
    std::pair{Family::ft3, std::string_view("ft3")},
    std::pair{Family::mrft, std::string_view("mrft")},
    std::pair{Family::mpft, std::string_view("mpft")},
    std::pair{Family::slimfly, std::string_view("slimfly")},
    std::pair{Family::dragonfly, std::string_view("dragonfly")},
};
// The shorter names the CLI takes too (Slim Fly sf, Dragonfly df).
inline constexpr std::array kFamilyAliases = {
    std::pair{Family::slimfly, std::string_view("sf")},
    std::pair{Family::dragonfly, std::string_view("df")},
};
std::string_view family_name(Family f);
// A family by its name or alias; none for an unknown one.
std::optional<Family> family_from_name(std::string_view name);
// "node, ft2, ft3, mrft, mpft, slimfly (sf), dragonfly (df)"
std::string family_choices();

// How an MPFT packet reaches a GPU of another index on another node (spec: it must cross NVLink
// once, on one side or the other).
enum class PlaneCrossing { at_source, at_destination };

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
