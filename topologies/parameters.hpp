// The topology: and cost: sections' keys, declared beside the specs they fill
// (core/parameter.hpp): each key's doc, default and range. The network's size parameters come
// from its parameter table (network_spec.hpp), which families read each from the family registry.
#pragma once

#include <string>

#include "sim/core/parameter.hpp"
#include "sim/core/quantity_parse.hpp"
#include "topologies/cost.hpp"
#include "topologies/family.hpp"
#include "topologies/topology_spec.hpp"

namespace codesim::topologies {

// Calls declare(key, accessor, info) for every key of TopologySpec, in the schema's order.
template <class Declare>
void declare_parameters(Declare&& declare) {
  using namespace core;
  declare("family", MEMBER(network.family),
          with_default("node",
                       "Network family joining the nodes (a node is one NVLink domain: "
                       "hardware.gpus_per_node GPUs, 72 for gb200)."));
  const NetworkSpec network;
  for (const NetworkParameter& p : kNetworkParameters) {
    ParamInfo info =
        at_least(with_default(std::to_string(network.*p.member),
                              std::string(p.doc) + " Read by " + families_reading(p.name) + "."),
                 p.min);
    info.max = p.max;
    declare(
        std::string(p.name), [member = p.member](auto& t) -> auto& { return t.network.*member; },
        std::move(info));
  }
  declare("plane_crossing", MEMBER(network.plane_crossing),
          with_default("at-source",
                       "mpft: where a packet for another GPU index crosses NVLink to the right "
                       "plane, on the sending or the receiving node."));
  declare("switch_latency", MEMBER(switch_latency),
          at_least(with_default("0.45us",
                                "Latency added per switch-to-switch link; default from DeepSeek's "
                                "IB latencies, (3.7us cross-leaf - 2.8us same-leaf) / 2."),
                   0));
  declare("fabric", MEMBER(fabric),
          with_default("infiniband",
                       "infiniband (switches forward by destination through the subnet "
                       "manager's tables) or roce (Ethernet switches hash flows)."));
  declare("routing", MEMBER(path_selection),
          with_default(
              "auto",
              "How flows pick their paths: auto (the fabric's own: on infiniband dmodk for fat "
              "trees and minhop for slimfly and dragonfly, on roce ecmp-hash), dmodk "
              "(InfiniBand's destination-based tables by d-mod-k's closed form: one minimal path "
              "per destination, the destinations behind a leaf on different ports), ftree, "
              "minhop or updn (OpenSM's engines' tables: ftree for fat trees, minhop its "
              "default, updn minhop over up*/down* paths), ecmp-hash or static (one minimal "
              "path per flow, hashed), spread (adaptive routing: evenly over the minimal paths), "
              "valiant or ugal (slimfly and dragonfly: through a random intermediate router, or "
              "the share of that detour that unloads the busiest link)."));
  declare("failed_planes", MEMBER(failed_planes),
          optional_field("Indices of planes taken out of service."));
}

// Calls declare(key, accessor, info) for every unit price (cost.hpp: the defaults and how they
// were fitted).
template <class Declare>
void declare_cost_parameters(Declare&& declare) {
  using namespace core;
  const UnitPrices prices;
  declare("switch_usd", MEMBER(switch_usd),
          at_least(with_default(format_number(prices.switch_usd), "Price of one switch, USD."), 0));
  declare("switch_link_usd", MEMBER(switch_link_usd),
          at_least(with_default(format_number(prices.switch_link_usd),
                                "Switch-to-switch link with its transceivers, USD."),
                   0));
  declare("endpoint_link_usd", MEMBER(endpoint_link_usd),
          at_least(with_default(format_number(prices.endpoint_link_usd),
                                "NIC-to-switch link with its transceivers, USD."),
                   0));
  declare("nic_usd", MEMBER(nic_usd),
          at_least(with_default(format_number(prices.nic_usd), "One NIC, USD."), 0));
}

}  // namespace codesim::topologies
