// The flags that describe a cluster on the command line (hardware preset, network family and
// its size), shared by `topo`, `a2a` and `collective`.
#pragma once

#include <string>
#include <string_view>

#include "models/hardware/hardware_spec.hpp"
#include "topologies/network_spec.hpp"
#include "topologies/topology.hpp"
#include "topologies/traffic.hpp"

namespace codesim::cli {

struct NetworkFlags {
  std::string family;  // a name or alias of the family registry (topologies/family.hpp)
  std::string hardware = "h800";
  int nodes = 0;  // 0: the command's default
  // The size parameters, one flag each (kNetworkParameters); only those the family reads are
  // used. Defaults as the schema's, except planes: 8, one per GPU of an H800 node.
  topologies::NetworkSpec sizes{.planes = 8};
  std::string plane_crossing = "at-source";
};

// The CLI flag of a spec parameter ("switch_radix" -> "--switch-radix"; "nodes" -> "--nodes").
std::string flag_of(std::string_view parameter);

struct BuiltNetwork {
  std::string name;
  hardware::HardwareSpec hardware;
  topologies::NetworkSpec spec;
  topologies::Topology topology;
  double build_seconds = 0;
};

// Builds what the flags say with `nodes` nodes (flags.nodes when set; default_nodes when that is
// 0, or the network's capacity when both are 0). Usage errors name `command` and the flag.
BuiltNetwork build_network(std::string_view command, const NetworkFlags& flags,
                           int default_nodes = 0);

// --spread: even | hashed | valiant | ugal (topologies/traffic.hpp); a usage error otherwise.
topologies::Spread spread_of(std::string_view command, const std::string& name);

}  // namespace codesim::cli
