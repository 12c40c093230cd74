// `codesim compare A.yaml B.yaml ...`: topology cost and training throughput side by side
// (study::compare: each scenario in a child process), differences against the first.
#include <ostream>

#include "sim/cli/commands.hpp"
#include "sim/cli/usage.hpp"
#include "sim/core/error.hpp"
#include "sim/core/text.hpp"
#include "sim/report/compare_report.hpp"
#include "sim/study/point_runs.hpp"

namespace codesim::cli {

void run_compare(const CompareOptions& o, std::ostream& out) {
  if (o.scenarios.size() < 2) {
    throw_usage_error("compare", "give at least two scenarios to compare");
  }
  const metrics::Comparison comparison = study::compare(o.scenarios, {.jobs = o.jobs});
  switch (o.format) {
    case report::Format::json:
      out << report::compare_json(comparison).dump(2) << "\n";
      return;
    case report::Format::csv:
      out << report::frame_csv(report::compare_frame(comparison));
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
