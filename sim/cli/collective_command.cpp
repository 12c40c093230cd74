// `codesim collective`: a collective over the first N GPUs for each message size, timed on the
// SimGrid platform, printed as NCCL tests print it (time, algorithm and bus bandwidth).
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <sstream>

#include "sim/cli/commands.hpp"
#include "sim/cli/network_flags.hpp"
#include "sim/cli/usage.hpp"
#include "sim/core/error.hpp"
#include "sim/core/quantity_parse.hpp"
#include "sim/core/stopwatch.hpp"
#include "sim/core/text.hpp"
#include "sim/report/format.hpp"
#include "sim/report/schema_version.hpp"
#include "sim/report/table.hpp"
#include "sim/study/collectives.hpp"

namespace codesim::cli {
namespace {

using nlohmann::ordered_json;
using report::fixed;
using study::CollectiveAlgorithm;
using study::CollectiveKind;

CollectiveKind collective_kind_of(const std::string& k) {
  for (const auto kind :
       {CollectiveKind::all_to_all, CollectiveKind::all_gather, CollectiveKind::reduce_scatter,
        CollectiveKind::all_reduce, CollectiveKind::send}) {
    if (k == study::collective_kind_name(kind)) {
      return kind;
    }
  }
  throw_usage_error("collective", "unknown collective '" + k + "'",
                    "one of: all-reduce, all-gather, reduce-scatter, all-to-all, send", "--kind");
}

// Empty or "auto": NCCL's choice per size.
std::optional<CollectiveAlgorithm> algorithm_of(const std::string& a) {
  if (a.empty() || a == "auto") {
    return std::nullopt;
  }
  for (const auto algorithm :
       {CollectiveAlgorithm::ring, CollectiveAlgorithm::tree, CollectiveAlgorithm::nvls,
        CollectiveAlgorithm::direct, CollectiveAlgorithm::hierarchical}) {
    if (a == study::collective_algorithm_name(algorithm)) {
      return algorithm;
    }
  }
  throw_usage_error("collective", "unknown algorithm '" + a + "'",
                    "one of: auto, ring, tree, nvls, direct, hierarchical", "--algorithm");
}

std::vector<core::Bytes> sizes_of(const std::string& list) {
  std::vector<core::Bytes> sizes;
  for (const std::string& item : core::split(list, ',')) {
    try {
      const auto size = core::parse_as<core::Bytes>(item, core::Dimension::bytes);
      if (size.value <= 0) {
        throw_usage_error("collective", "sizes must be positive, got '" + item + "'", "",
                          "--sizes");
      }
      sizes.push_back(size);
    } catch (const core::UnitError& e) {
      throw_usage_error("collective", "'" + item + "': " + e.what(),
                        std::string(core::unit_examples(core::Dimension::bytes)), "--sizes");
    }
  }
  return sizes;
}

// The sweep's JSON: the collective, its algorithm, the cluster and one row per size.
ordered_json collective_json(const CollectiveOptions& o, const BuiltNetwork& net,
                             CollectiveKind kind,
                             const std::optional<CollectiveAlgorithm>& algorithm,
                             const study::CollectiveSweep& sweep) {
  ordered_json rows = ordered_json::array();
  for (const auto& p : sweep.points) {
    rows.push_back({{"size_bytes", p.size.value},
                    {"algorithm", std::string(study::collective_algorithm_name(p.algorithm))},
                    {"protocol", p.protocol},
                    {"time_us", p.time.value * 1e6},
                    {"algbw_GBps", p.algorithm_bandwidth.value / 1e9},
                    {"busbw_GBps", p.bus_bandwidth.value / 1e9}});
  }
  ordered_json j;
  j["schema_version"] = report::kSchemaVersion;
  j["collective"] = std::string(study::collective_kind_name(kind));
  j["algorithm"] =
      algorithm ? std::string(study::collective_algorithm_name(*algorithm)) : std::string("auto");
  j["hardware"] = net.hardware.name;
  j["topology"] = net.name;
  j["nodes"] = net.topology.nodes();
  j["gpus"] = o.gpus;
  j["bus_factor"] = sweep.bus_factor;
  j["results"] = rows;
  if (o.bench) {
    j["bench"] = {{"simulation_seconds", sweep.simulation_time.value},
                  {"peak_rss_MB", core::peak_resident_mb()}};
  }
  return j;
}

std::string collective_table(const CollectiveOptions& o, const BuiltNetwork& net,
                             const ordered_json& j) {
  std::ostringstream out;
  out << j["collective"].get<std::string>() << " (" << j["algorithm"].get<std::string>()
      << ") over " << o.gpus << " GPUs, " << net.topology.nodes() << " node(s) of "
      << net.hardware.name << " on " << net.name << "\n";
  using Align = report::Table::Align;
  report::Table t(
      {"size", "algorithm", "protocol", "time (us)", "algbw (GB/s)", "busbw (GB/s)"},
      {Align::right, Align::left, Align::left, Align::right, Align::right, Align::right});
  for (const auto& r : j["results"]) {
    t.add_row({core::format_quantity(r["size_bytes"].get<double>(), core::Dimension::bytes),
               r["algorithm"].get<std::string>(), r["protocol"].get<std::string>(),
               fixed(r["time_us"].get<double>(), 1), fixed(r["algbw_GBps"].get<double>(), 2),
               fixed(r["busbw_GBps"].get<double>(), 2)});
  }
  out << t.render();
  return out.str();
}

}  // namespace

void run_collective(const CollectiveOptions& o, std::ostream& out) {
  const CollectiveKind kind = collective_kind_of(o.kind);
  const std::optional<CollectiveAlgorithm> algorithm = algorithm_of(o.algorithm);
  const std::vector<core::Bytes> sizes = sizes_of(o.sizes);
  if (o.gpus < 2) {
    throw_usage_error("collective", "--gpus must be at least 2, got " + std::to_string(o.gpus), "",
                      "--gpus");
  }
  const int per_node = hardware_preset("collective", o.network.hardware, "--gpu").gpus_per_node;
  const BuiltNetwork net =
      build_network("collective", o.network, (o.gpus + per_node - 1) / per_node);
  if (net.topology.gpus() < o.gpus) {
    throw_usage_error("collective",
                      "the topology has " + std::to_string(net.topology.gpus()) +
                          " GPUs, fewer than --gpus " + std::to_string(o.gpus),
                      "", "--nodes");
  }
  const study::CollectiveSweepSpec spec{.kind = kind,
                                        .algorithm = algorithm,
                                        .gpus = o.gpus,
                                        .sizes = sizes,
                                        .spread = spread_of("collective", o.spread)};
  const core::Bytes need = study::estimated_memory(net.topology, spec);
  if (need.value > o.max_memory_mb * 1e6) {
    throw_usage_error("collective",
                      "the " + std::string(study::collective_kind_name(kind)) + " over " +
                          std::to_string(o.gpus) + " GPUs would need about " +
                          core::megabytes(need.value) + " MB to simulate, over the budget of " +
                          core::megabytes(o.max_memory_mb * 1e6) + " MB",
                      "fewer --gpus, or raise --max-memory-mb", "--gpus");
  }
  const study::CollectiveSweep sweep = [&] {
    try {
      return study::simulate_collectives(net.topology, spec);
    } catch (const std::invalid_argument& e) {
      throw_usage_error("collective", e.what());
    }
  }();
  const ordered_json j = collective_json(o, net, kind, algorithm, sweep);
  if (o.format == report::Format::json) {
    out << j.dump(2) << "\n";
    return;
  }
  out << collective_table(o, net, j);
  if (o.bench) {
    out << "bench: platform + simulation " << fixed(sweep.simulation_time.value, 3)
        << " s, peak memory " << fixed(core::peak_resident_mb(), 0) << " MB\n";
  }
}

}  // namespace codesim::cli
