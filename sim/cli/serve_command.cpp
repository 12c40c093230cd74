// `codesim serve SCENARIO`: the request-level serving run of the scenario's serve: section,
// reported in the format asked for.
#include <ostream>

#include "sim/cli/commands.hpp"
#include "sim/config/dump.hpp"
#include "sim/config/loader.hpp"
#include "sim/report/atomic_file.hpp"
#include "sim/report/serve_report.hpp"
#include "sim/study/serve.hpp"

namespace codesim::cli {

void run_serve(const ServeOptions& o, std::ostream& out) {
  const auto settings = config::parse_settings(o.settings);
  const metrics::ServeResult r = study::simulate_serving(o.scenario, settings);
  const auto j = report::serve_json(r);
  if (!o.report.empty()) {
    report::write_file_atomically(o.report, j.dump(2) + "\n");
  }
  switch (o.format) {
    case report::Format::json:
      out << j.dump(2) << "\n";
      return;
    case report::Format::csv:
      out << report::serve_csv(r);
      return;
    case report::Format::md:
      out << report::serve_markdown(r);
      return;
    case report::Format::html: {
      const config::Scenario s = config::load_scenario(o.scenario, settings);
      out << report::serve_html(r, {config::to_yaml(s), "codesim " CODESIM_VERSION});
      return;
    }
    case report::Format::table:
      out << report::serve_table(r);
      return;
  }
}

}  // namespace codesim::cli
