// The flag helpers shared by the subcommands (cli_flags.hpp).
#include "sim/cli/cli_flags.hpp"

#include <charconv>
#include <cmath>
#include <map>

#include "topologies/family.hpp"

namespace codesim::cli {

const CLI::Validator kPositive(
    [](std::string& value) -> std::string {
      double v = 0;
      const char* end = value.data() + value.size();
      const auto [ptr, ec] = std::from_chars(value.data(), end, v);
      if (ec != std::errc() || ptr != end || !std::isfinite(v) || v <= 0) {
        return "must be a positive number, got '" + value + "'";
      }
      return {};
    },
    "POSITIVE");

CLI::Option* add_format(CLI::App* cmd, report::Format& format,
                        std::initializer_list<report::Format> allowed) {
  std::map<std::string, report::Format> names;
  std::string doc;
  for (const auto f : allowed) {
    for (const auto& [value, name] : report::kFormatNames) {
      if (value == f) {
        names.emplace(std::string(name), f);
        doc += (doc.empty() ? "" : ", ") + std::string(name);
      }
    }
  }
  return cmd->add_option("--format", format, doc)->transform(CLI::CheckedTransformer(names));
}

void add_network_flags(CLI::App* cmd, NetworkFlags& f, const std::string& nodes_doc,
                       const std::string& family_default) {
  auto alias = [&](const std::string& name, auto& value) {
    return cmd->add_option(name, value)->group("");  // hidden from --help
  };
  cmd->add_option(
      "--family", f.family,
      "topology.family: " + topologies::family_choices() +
          (family_default.empty() ? std::string()
                                  : " (default here " + family_default + "; the schema's node)"));
  alias("--topology", f.family);
  cmd->add_option("--gpu", f.hardware, "hardware.gpu: the hardware preset of the nodes");
  alias("--hardware", f.hardware);
  cmd->add_option("--nodes", f.nodes, "hardware.nodes: " + nodes_doc)
      ->check(CLI::Range(0, 10'000'000));
  const topologies::NetworkSpec schema_defaults;
  for (const topologies::NetworkParameter& p : topologies::kNetworkParameters) {
    int& value = f.sizes.*p.member;
    std::string help = "topology." + std::string(p.name) + ": " + std::string(p.doc) + " Read by " +
                       topologies::families_reading(p.name) + ".";
    if (value != schema_defaults.*p.member) {
      help += " (default here " + std::to_string(value) + "; the schema's " +
              std::to_string(schema_defaults.*p.member) + ")";
    }
    cmd->add_option(cli::flag_of(p.name), value, help);
  }
  // The shorter spellings of earlier releases.
  alias("--radix", f.sizes.radix);
  alias("--q", f.sizes.slimfly_q);
  alias("--p", f.sizes.endpoints_per_router);
  alias("--a", f.sizes.dragonfly_a);
  alias("--h", f.sizes.dragonfly_h);
  alias("--groups", f.sizes.dragonfly_groups);
  cmd->add_option("--plane-crossing", f.plane_crossing,
                  "topology.plane_crossing: MPFT at-source or at-destination")
      ->check(CLI::IsMember({"at-source", "at-destination"}));
}

void add_scenario_report(CLI::App* cmd, ScenarioReportOptions& o, const std::string& example) {
  using report::Format;
  cmd->add_option("scenario", o.scenario, "Scenario YAML")->required();
  cmd->add_option("--set", o.settings, "Override a key: --set " + example);
  add_format(cmd, o.format, {Format::table, Format::json, Format::csv, Format::md, Format::html});
  cmd->add_option("--report", o.report, "Also write the JSON report to this file");
}

}  // namespace codesim::cli
