// codesim entry point: parses the command line with the subcommands of cli_flags.hpp, runs the
// one given and maps errors to exit codes (0 ok, 1 simulation failure, 2 bad input or usage).
#include <CLI/CLI.hpp>
#include <iostream>
#include <sstream>

#include "sim/cli/cli_flags.hpp"
#include "sim/core/error.hpp"
#include "sim/report/atomic_file.hpp"

namespace {

using namespace codesim;
using namespace codesim::cli;

// Runs the parsed command with its output buffered; errors to exit codes.
int execute(const Command& command) {
  std::ostringstream buffer;
  try {
    const int code = command.run(buffer);
    std::cout << buffer.str();
    return code;
  } catch (const report::OutputError& e) {
    // The report computed so far is not lost with the file it could not be written to.
    std::cout << buffer.str();
    std::cerr << "error: " << e.what() << "\n";
    return kExitBadInput;
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
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "codesim: discrete-event simulator of GPU clusters for large Mixture-of-Experts models"};
  app.set_version_flag("--version", "codesim " CODESIM_VERSION);
  app.require_subcommand(1);
  app.fallthrough(false);
  const std::vector<Command> commands{
      add_model(app),      add_describe(app), add_check(app),  add_topo(app),
      add_kernels(app),    add_cost(app),     add_trace(app),  add_a2a(app),
      add_collective(app), add_schedule(app), add_run(app),    add_serve(app),
      add_campaign(app),   add_sweep(app),    add_search(app), add_compare(app)};
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitBadInput;
  }
  for (const auto& c : commands) {
    if (*c.app) {
      return execute(c);
    }
  }
  return kExitOk;
}
