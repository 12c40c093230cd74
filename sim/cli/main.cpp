// codesim entry point: the only file that sees CLI11; maps errors to exit codes
// (0 ok, 1 simulation failure, 2 bad input or usage).
#include <CLI/CLI.hpp>
#include <iostream>
#include <sstream>

#include "sim/cli/commands.hpp"
#include "sim/core/error.hpp"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitSimulationFailure = 1;
constexpr int kExitBadInput = 2;

// Runs a command into a buffer so that a failure prints no partial output.
template <class F>
void buffered(F&& command) {
  std::ostringstream buffer;
  command(buffer);
  std::cout << buffer.str();
}

}  // namespace

int main(int argc, char** argv) {
  using namespace codesim;
  CLI::App app{
      "codesim: discrete-event simulator of GPU clusters for large Mixture-of-Experts models"};
  app.set_version_flag("--version", "codesim " CODESIM_VERSION);
  app.require_subcommand(1);
  app.fallthrough(false);

  cli::ModelOptions model;
  int mtp_depth = -1;
  auto* model_cmd = app.add_subcommand(
      "model", "Parameters, KV cache, FLOPs per token and per-layer ops of a model");
  model_cmd->add_option(
      "name", model.name,
      "Preset: deepseek-v3, deepseek-v2, deepseek-v2-lite, qwen2.5-72b, llama3.1-405b");
  model_cmd->add_option("--config", model.config,
                        "Model config JSON (DeepSeek or Hugging Face format)");
  model_cmd->add_option("--seq-len", model.seq_len, "Sequence length for FLOPs per token")
      ->check(CLI::Range(1, 10'000'000));
  model_cmd->add_option("--mtp-depth", mtp_depth, "Override the number of MTP modules")
      ->check(CLI::Range(0, 8));
  model_cmd->add_option("--format", model.format, "table or json")
      ->check(CLI::IsMember({"table", "json"}));

  std::string describe_format = "table";
  auto* describe_cmd =
      app.add_subcommand("describe", "Print the scenario schema (key, type, unit, default, doc)");
  describe_cmd->add_option("--format", describe_format, "table, json or md")
      ->check(CLI::IsMember({"table", "json", "md"}));

  std::string check_file;
  std::string check_format = "yaml";
  auto* check_cmd = app.add_subcommand("check", "Validate a scenario and print it resolved");
  check_cmd->add_option("scenario", check_file, "Scenario YAML")->required();
  check_cmd->add_option("--format", check_format, "yaml or json")
      ->check(CLI::IsMember({"yaml", "json"}));

  cli::TopoOptions topo;
  auto* topo_cmd = app.add_subcommand(
      "topo", "Build a topology and print its properties, routes or DOT; compare ISCA Table 3");
  topo_cmd->add_option("--scenario", topo.scenario, "Take the topology from a scenario");
  topo_cmd->add_option("--family", topo.family,
                       "node, ft2, ft3, mrft, mpft, slimfly (sf), dragonfly (df)");
  topo_cmd->add_option("--hardware", topo.hardware, "Hardware preset for the nodes");
  topo_cmd->add_option("--nodes", topo.nodes, "Nodes (default: fill the network)")
      ->check(CLI::Range(0, 10'000'000));
  topo_cmd->add_option("--radix", topo.radix, "Switch ports (fat trees)");
  topo_cmd->add_option("--planes", topo.planes, "MPFT planes");
  topo_cmd->add_option("--q", topo.q, "Slim Fly q (prime)");
  topo_cmd->add_option("--p", topo.p, "Slim Fly / Dragonfly endpoints per router");
  topo_cmd->add_option("--a", topo.a, "Dragonfly routers per group");
  topo_cmd->add_option("--h", topo.h, "Dragonfly global links per router");
  topo_cmd->add_option("--groups", topo.groups, "Dragonfly groups");
  topo_cmd->add_option("--plane-crossing", topo.plane_crossing, "MPFT: at-source or at-destination")
      ->check(CLI::IsMember({"at-source", "at-destination"}));
  topo_cmd->add_option("--compare", topo.compare,
                       "ISCA Table 3 instances, e.g. ft2,mpft,ft3,sf,df");
  topo_cmd->add_option("--route", topo.route, "Equal-cost routes between GPUs A,B");
  topo_cmd->add_flag("--bench", topo.bench, "Print build time and peak memory");
  topo_cmd->add_option("--format", topo.format, "table, json or dot")
      ->check(CLI::IsMember({"table", "json", "dot"}));

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitBadInput;
  }

  try {
    if (*model_cmd) {
      if (model.name.empty() == model.config.empty()) {
        std::cerr << "codesim model: give a preset name or --config FILE (not both)\n";
        return kExitBadInput;
      }
      if (mtp_depth >= 0) {
        model.mtp_depth = mtp_depth;
      }
      buffered([&](std::ostream& out) { cli::run_model(model, out); });
    } else if (*describe_cmd) {
      buffered([&](std::ostream& out) { cli::run_describe(describe_format, out); });
    } else if (*topo_cmd) {
      buffered([&](std::ostream& out) { cli::run_topo(topo, out); });
    } else if (*check_cmd) {
      buffered([&](std::ostream& out) { cli::run_check(check_file, check_format, out); });
    }
  } catch (const core::InputError& e) {
    std::cerr << e.what() << "\n";
    return kExitBadInput;
  } catch (const core::SimulationError& e) {
    std::cerr << "simulation failed: " << e.what() << "\n";
    return kExitSimulationFailure;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitSimulationFailure;
  }
  return kExitOk;
}
