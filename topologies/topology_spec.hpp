// The network joining a scenario's nodes as its topology: section gives it: the family and its
// sizes, the switches' latency, the fabric, how flows pick their paths, and the planes out of
// service. parameters.hpp declares each key with its doc and default (the struct's own).
#pragma once

#include <array>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/core/units.hpp"
#include "topologies/network_spec.hpp"

namespace codesim::topologies {

// InfiniBand switches forward by destination through the subnet manager's tables; Ethernet
// (RoCE) switches hash flows.
enum class Fabric { infiniband, roce };
inline constexpr std::array kFabricNames = {
    std::pair{Fabric::infiniband, std::string_view("infiniband")},
    std::pair{Fabric::roce, std::string_view("roce")}};
constexpr const auto& spellings(Fabric) {
  return kFabricNames;
}

// How flows pick their paths. `automatic`: the fabric's usual routing (InfiniBand: dmodk on fat
// trees, minhop on router networks; RoCE: ecmp-hash).
enum class PathSelection {
  automatic,
  ecmp_hash,
  spread,
  fixed,
  dmodk,
  ftree,
  minhop,
  updn,
  valiant,
  ugal
};
inline constexpr std::array kPathSelectionNames = {
    std::pair{PathSelection::automatic, std::string_view("auto")},
    std::pair{PathSelection::ecmp_hash, std::string_view("ecmp-hash")},
    std::pair{PathSelection::spread, std::string_view("spread")},
    std::pair{PathSelection::fixed, std::string_view("static")},
    std::pair{PathSelection::dmodk, std::string_view("dmodk")},
    std::pair{PathSelection::ftree, std::string_view("ftree")},
    std::pair{PathSelection::minhop, std::string_view("minhop")},
    std::pair{PathSelection::updn, std::string_view("updn")},
    std::pair{PathSelection::valiant, std::string_view("valiant")},
    std::pair{PathSelection::ugal, std::string_view("ugal")}};
constexpr const auto& spellings(PathSelection) {
  return kPathSelectionNames;
}

struct TopologySpec {
  NetworkSpec network;
  // Per switch-to-switch link: DeepSeek's IB latencies, (3.7 us cross-leaf - 2.8 us same-leaf) / 2.
  core::Seconds switch_latency{0.45e-6};
  Fabric fabric = Fabric::infiniband;
  PathSelection path_selection = PathSelection::automatic;
  std::vector<int> failed_planes;  // indices of planes out of service
};

}  // namespace codesim::topologies
