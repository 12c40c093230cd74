// `codesim compare A.yaml B.yaml ...`: topology cost and training throughput side by side, each
// scenario simulated in its own codesim process (SimGrid allows one engine per process),
// differences against the first.
#include <nlohmann/json.hpp>
#include <ostream>

#include "sim/cli/child_process.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/usage.hpp"
#include "sim/core/error.hpp"
#include "sim/core/text.hpp"
#include "sim/report/compare_report.hpp"
#include "sim/report/run_report.hpp"
#include "sim/study/compare.hpp"

namespace codesim::cli {

void run_compare(const CompareOptions& o, std::ostream& out) {
  if (o.scenarios.size() < 2) {
    throw_usage_error("compare", "give at least two scenarios to compare");
  }
  study::load_compared(o.scenarios);  // a typo in the last one fails before any runs
  std::vector<std::vector<std::string>> runs;
  for (const auto& path : o.scenarios) {
    runs.push_back({"run", path, "--format", "json"});
  }
  const auto results = run_self_all(runs, o.jobs);
  metrics::Comparison comparison;
  for (std::size_t i = 0; i < o.scenarios.size(); ++i) {
    if (results[i].exit_code != 0) {
      throw core::SimulationError(o.scenarios[i] + ": " + results[i].error_message());
    }
    comparison.push_back(study::compared(
        o.scenarios[i], report::run_from_json(nlohmann::ordered_json::parse(results[i].out))));
  }
  switch (o.format) {
    case report::Format::json:
      out << report::compare_json(comparison).dump(2) << "\n";
      return;
    case report::Format::csv:
      out << report::compare_csv(comparison);
      return;
    case report::Format::md:
      out << report::compare_markdown(comparison);
      return;
    case report::Format::html: {
      std::string files;
      for (const auto& path : o.scenarios) {
        files += "# " + path + "\n" + core::read_file(path) + "\n";
      }
      out << report::compare_html(comparison, {files, "codesim " CODESIM_VERSION});
      return;
    }
    case report::Format::table:
      out << report::compare_table(comparison);
      return;
  }
}

}  // namespace codesim::cli
