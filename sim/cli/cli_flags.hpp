// The codesim executable's flags (CLI11 is seen by the executable's files only: main.cpp and the
// *_flags.cpp beside it): each subcommand registers its flags and what it runs; main parses, runs
// the one given and maps errors to exit codes (0 ok, 1 simulation failure, 2 bad input or usage).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <initializer_list>
#include <memory>
#include <ostream>
#include <string>

#include "sim/cli/commands.hpp"

namespace codesim::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitSimulationFailure = 1;
inline constexpr int kExitBadInput = 2;

// A budget flag's value: a positive finite number. CLI11's PositiveNumber lets nan through and
// states its range with DBL_MAX's 309 digits.
extern const CLI::Validator kPositive;

// A registered subcommand and what it runs once parsed: its exit code, its output written to
// the stream (buffered by main, so that a failure prints no partial output).
struct Command {
  CLI::App* app = nullptr;
  std::function<int(std::ostream&)> run;
};

// Options live as long as the command that fills them.
template <class Options>
std::shared_ptr<Options> options() {
  return std::make_shared<Options>();
}

// --format among `allowed` of report::Format's names.
CLI::Option* add_format(CLI::App* cmd, report::Format& format,
                        std::initializer_list<report::Format> allowed);

// The flags of a network, named as the scenario keys they stand for (topology.switch_radix is
// --switch-radix); the shorter spellings of earlier releases stay as hidden aliases. A default that
// differs from the schema's says so.
void add_network_flags(CLI::App* cmd, NetworkFlags& f, const std::string& nodes_doc,
                       const std::string& family_default);

// The scenario, --set, every format and --report of a one-scenario study.
void add_scenario_report(CLI::App* cmd, ScenarioReportOptions& o, const std::string& example);

// A command that prints and always succeeds once it returns.
template <class Options>
std::function<int(std::ostream&)> printing(std::shared_ptr<Options> o,
                                           void (*run)(const Options&, std::ostream&)) {
  return [o, run](std::ostream& out) {
    run(*o, out);
    return kExitOk;
  };
}

// The tools' subcommands (tool_flags.cpp).
Command add_model(CLI::App& app);
Command add_describe(CLI::App& app);
Command add_check(CLI::App& app);
Command add_topo(CLI::App& app);
Command add_kernels(CLI::App& app);
Command add_cost(CLI::App& app);
Command add_trace(CLI::App& app);
Command add_a2a(CLI::App& app);
Command add_collective(CLI::App& app);
Command add_schedule(CLI::App& app);

// The studies' subcommands (study_flags.cpp).
Command add_run(CLI::App& app);
Command add_serve(CLI::App& app);
Command add_campaign(CLI::App& app);
Command add_sweep(CLI::App& app);
Command add_search(CLI::App& app);
Command add_compare(CLI::App& app);

}  // namespace codesim::cli
