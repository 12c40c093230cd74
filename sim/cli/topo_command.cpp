// `codesim topo`: topology properties, routes, DOT export, and the ISCA Table 3 comparison.
#include <chrono>
#include <cstdio>
#include <map>
#include <ostream>

#include "models/hardware/catalog.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/network_flags.hpp"
#include "sim/cli/usage.hpp"
#include "sim/config/loader.hpp"
#include "sim/config/topology_from.hpp"
#include "sim/core/error.hpp"
#include "sim/core/quantity_parse.hpp"
#include "sim/core/stopwatch.hpp"
#include "sim/core/text.hpp"
#include "sim/report/format.hpp"
#include "sim/report/schema_version.hpp"
#include "sim/report/table.hpp"
#include "topologies/build.hpp"
#include "topologies/export.hpp"
#include "topologies/paper_instances.hpp"
#include "topologies/routing.hpp"

namespace codesim::cli {
namespace {

using report::fixed;

using nlohmann::ordered_json;
using topologies::Family;

struct Built {
  std::string name;
  topologies::NetworkSpec spec;
  topologies::Topology topology;
  topologies::UnitPrices prices;
  double build_seconds = 0;
};

Built build_from_flags(const TopoOptions& o) {
  BuiltNetwork n = build_network("topo", o.network);
  return Built{n.name, n.spec, std::move(n.topology), {}, n.build_seconds};
}

Built build_from_scenario(const std::string& path) {
  const config::Scenario s = config::load_scenario(path);  // validated, topology included
  const auto start = std::chrono::steady_clock::now();
  auto t = config::build_topology(s);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return Built{s.name, s.topology.network, std::move(t), s.cost, seconds};
}

void print_properties(const std::vector<ordered_json>& rows, std::ostream& out) {
  using Align = report::Table::Align;
  report::Table t({"name", "endpoints", "switches", "links", "cost (M$)", "cost/endpoint (k$)",
                   "diameter", "bisection (TB/s)"},
                  {Align::left, Align::right, Align::right, Align::right, Align::right,
                   Align::right, Align::right, Align::right});
  for (const auto& r : rows) {
    t.add_row({r["name"].get<std::string>(), std::to_string(r["endpoints"].get<long long>()),
               std::to_string(r["switches"].get<long long>()),
               std::to_string(r["links"].get<long long>()),
               fixed(r["cost_usd"].get<double>() / 1e6, 1),
               fixed(r["cost_per_endpoint_usd"].get<double>() / 1e3, 2),
               std::to_string(r["diameter"].get<int>()),
               fixed(r["bisection_bandwidth_Bps"].get<double>() / 1e12, 1) +
                   (r["bisection_exact"].get<bool>() ? "" : " (est.)")});
  }
  out << t.render();
}

void run_paper_table(const TopoOptions& o, std::ostream& out) {
  const auto h800 = *hardware::find_preset("h800");
  const auto node = topologies::node_spec_from(h800, core::Seconds(0.45e-6));
  ordered_json rows = ordered_json::array();
  std::vector<ordered_json> table_rows;
  report::Table paper({"name", "endpoints", "switches", "links", "cost (M$)", "cost/endpoint (k$)",
                       "cost vs paper"});
  for (const std::string& name : core::split(o.compare, ',')) {
    const auto inst = topologies::find_paper_instance(name);
    if (!inst) {
      throw_usage_error("topo", "unknown instance '" + name + "' in --compare",
                        "instances of ISCA 2025 Table 3: ft2, mpft, ft3, sf, df");
    }
    const auto p = topologies::closed_form(inst->spec, node, inst->nodes, topologies::UnitPrices{});
    auto row = topologies::to_json(inst->name, p);
    row["published"] = {{"endpoints", inst->endpoints},
                        {"switches", inst->switches},
                        {"links", inst->links},
                        {"cost_usd", inst->cost_musd * 1e6},
                        {"cost_per_endpoint_usd", inst->cost_per_endpoint_kusd * 1e3}};
    paper.add_row({inst->name, std::to_string(inst->endpoints), std::to_string(inst->switches),
                   std::to_string(inst->links), fixed(inst->cost_musd, 0),
                   fixed(inst->cost_per_endpoint_kusd, 2),
                   (p.cost.total_usd() >= inst->cost_musd * 1e6 ? "+" : "") +
                       fixed(100.0 * (p.cost.total_usd() / (inst->cost_musd * 1e6) - 1.0), 1) +
                       "%"});
    table_rows.push_back(row);
    rows.push_back(row);
  }
  if (o.format == "json") {
    out << rows.dump(2) << "\n";
    return;
  }
  out << "codesim (closed forms; unit prices in topologies/cost.hpp, link prices fitted to Table "
         "3):\n";
  print_properties(table_rows, out);
  out << "\nISCA 2025 Table 3 as published:\n" << paper.render();
}

void print_route(const topologies::Topology& t, const std::string& spec, bool json,
                 std::ostream& out) {
  const auto comma = spec.find(',');
  int a = -1;
  int b = -1;
  try {
    a = std::stoi(spec.substr(0, comma));
    b = comma == std::string::npos ? -1 : std::stoi(spec.substr(comma + 1));
  } catch (const std::exception&) {
  }
  if (a < 0 || b < 0 || a >= t.gpus() || b >= t.gpus()) {
    throw_usage_error("topo", "--route wants two GPU indices A,B between 0 and " +
                                  std::to_string(t.gpus() - 1) + ", got '" + spec + "'");
  }
  const auto set = topologies::route(t, a, b, {.max_paths = 8});
  ordered_json paths = ordered_json::array();
  for (const auto& p : set.paths) {
    ordered_json hops = ordered_json::array();
    for (const auto v : p.vertices) {
      hops.push_back(topologies::vertex_label(t, v));
    }
    paths.push_back(hops);
  }
  if (json) {
    out << ordered_json{{"schema_version", report::kSchemaVersion},
                        {"from", a},
                        {"to", b},
                        {"hops", set.hops},
                        {"switch_hops", set.switch_hops},
                        {"equal_cost_paths", set.count},
                        {"paths", paths}}
               .dump(2)
        << "\n";
    return;
  }
  out << "GPU " << a << " -> GPU " << b << ": " << set.hops << " links, " << set.switch_hops
      << " switch-to-switch, " << set.count << " equal-cost path(s)\n";
  for (const auto& p : paths) {
    std::vector<std::string> names;
    for (const auto& n : p) {
      names.push_back(n.get<std::string>());
    }
    out << "  " << core::join(names, " > ") << "\n";
  }
}

}  // namespace

void run_topo(const TopoOptions& o, std::ostream& out) {
  if (!o.compare.empty()) {
    run_paper_table(o, out);
    return;
  }
  if (o.scenario.empty() == o.network.family.empty()) {
    throw_usage_error(
        "topo", "give --scenario FILE or --family NAME (with its size flags), or --compare LIST");
  }
  const Built b = o.scenario.empty() ? build_from_flags(o) : build_from_scenario(o.scenario);
  if (!o.route.empty()) {
    print_route(b.topology, o.route, o.format == "json", out);
    return;
  }
  if (o.format == "dot") {
    try {
      out << topologies::to_dot(b.topology);
    } catch (const std::length_error& e) {
      throw_usage_error("topo", e.what(),
                        "DOT is for small topologies; use --format json for large ones");
    }
    return;
  }
  const auto p = topologies::measure(b.topology, b.spec, b.prices);
  ordered_json j = topologies::to_json(b.name, p);
  j["schema_version"] = report::kSchemaVersion;
  j["nodes"] = b.topology.nodes();
  j["gpus"] = b.topology.gpus();
  if (o.bench) {
    j["bench"] = {{"build_seconds", b.build_seconds}, {"peak_rss_MB", core::peak_resident_mb()}};
  }
  if (o.format == "json") {
    out << j.dump(2) << "\n";
    return;
  }
  print_properties({j}, out);
  out << "cables: " << p.counts.switch_links << " switch-to-switch, " << p.counts.endpoint_links
      << " NIC-to-switch, " << p.counts.nvlinks << " NVLink, " << p.counts.pcie_links << " PCIe\n";
  if (o.bench) {
    out << "bench: built in " << fixed(b.build_seconds, 3) << " s, peak memory "
        << fixed(core::peak_resident_mb(), 0) << " MB\n";
  }
}

}  // namespace codesim::cli
