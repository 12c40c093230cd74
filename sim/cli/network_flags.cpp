// Network flags -> Topology, with usage errors that name the flag.
#include "sim/cli/network_flags.hpp"

#include <algorithm>
#include <chrono>
#include <map>

#include "sim/cli/usage.hpp"
#include "sim/core/error.hpp"
#include "sim/core/stopwatch.hpp"
#include "topologies/build.hpp"
#include "topologies/family.hpp"

namespace codesim::cli {
namespace {

using topologies::Family;

Family family_from(std::string_view command, const std::string& name) {
  const auto family = topologies::family_from_name(name);
  if (!family) {
    throw_usage_error(command, "unknown family '" + name + "'",
                      "one of: " + topologies::family_choices());
  }
  return *family;
}

}  // namespace

std::string flag_of(std::string_view parameter) {
  std::string flag = "--" + std::string(parameter);
  std::replace(flag.begin(), flag.end(), '_', '-');
  return flag;
}

topologies::Spread spread_of(std::string_view command, const std::string& name) {
  const std::map<std::string, topologies::Spread> spreads = {
      {"even", topologies::Spread::even},         {"hashed", topologies::Spread::hashed},
      {"dmodk", topologies::Spread::destination}, {"ftree", topologies::Spread::ftree},
      {"minhop", topologies::Spread::minhop},     {"updn", topologies::Spread::updn},
      {"valiant", topologies::Spread::valiant},   {"ugal", topologies::Spread::ugal}};
  const auto found = spreads.find(name);
  if (found == spreads.end()) {
    throw_usage_error(command, "unknown spread '" + name + "'",
                      "one of: even, hashed, dmodk, ftree, minhop, updn, valiant, ugal",
                      "--spread");
  }
  return found->second;
}

BuiltNetwork build_network(std::string_view command, const NetworkFlags& f, int default_nodes) {
  const hardware::HardwareSpec hw = hardware_preset(command, f.hardware);
  const Family family = family_from(command, f.family);
  const topologies::FamilyDescriptor& described = topologies::descriptor(family);
  topologies::NetworkSpec spec;
  spec.family = family;
  for (const topologies::NetworkParameter& p : topologies::kNetworkParameters) {
    if (described.reads_parameter(p.name)) {
      spec.*p.member = f.sizes.*p.member;
    }
  }
  spec.plane_crossing = f.plane_crossing == "at-destination"
                            ? topologies::PlaneCrossing::at_destination
                            : topologies::PlaneCrossing::at_source;
  const auto node = topologies::node_spec_from(hw, core::Seconds(0.45e-6));
  int nodes = f.nodes != 0 ? f.nodes : default_nodes;
  if (nodes == 0) {
    nodes = !described.network
                ? 1
                : static_cast<int>(topologies::endpoint_capacity(spec) / node.gpus_per_node);
  }
  const auto start = std::chrono::steady_clock::now();
  try {
    auto t = topologies::build_topology(spec, node, nodes);
    return BuiltNetwork{f.family, hw, spec, std::move(t), core::seconds_since(start)};
  } catch (const topologies::SpecError& e) {
    std::vector<core::Diagnostic> ds;
    for (const auto& p : e.problems()) {
      ds.push_back(
          {{"codesim " + std::string(command), 0, 0}, flag_of(p.parameter), p.message, ""});
    }
    throw core::InputError(std::move(ds));
  }
}

}  // namespace codesim::cli
