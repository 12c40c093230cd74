// Counting and pricing.
#include "topologies/cost.hpp"

namespace codesim::topologies {

Cost cost(const Counts& c, const UnitPrices& prices) {
  return Cost{
      .switches_usd = static_cast<double>(c.switches) * prices.switch_usd,
      .switch_links_usd = static_cast<double>(c.switch_links) * prices.switch_link_usd,
      .endpoint_links_usd = static_cast<double>(c.endpoint_links) * prices.endpoint_link_usd,
      .nics_usd = static_cast<double>(c.endpoints) * prices.nic_usd};
}

Counts count(const Topology& t) {
  Counts c;
  const Graph& g = t.graph();
  for (const auto v : boost::make_iterator_range(boost::vertices(g))) {
    c.switches += is_switch(g[v].kind) ? 1 : 0;
  }
  for (const EdgeId e : t.links()) {
    const VertexKind a = g[boost::source(e, g)].kind;
    const VertexKind b = g[boost::target(e, g)].kind;
    if (is_switch(a) && is_switch(b)) {
      ++c.switch_links;
    } else if (a == VertexKind::nic || b == VertexKind::nic) {
      if (is_switch(a) || is_switch(b)) {
        ++c.endpoint_links;
      } else {
        ++c.pcie_links;
      }
    } else {
      ++c.nvlinks;
    }
  }
  c.endpoints = c.endpoint_links;
  return c;
}

}  // namespace codesim::topologies
