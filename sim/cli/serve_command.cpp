// `codesim serve SCENARIO`: the request-level serving run of the scenario's serve: section,
// reported in the format asked for.
#include <ostream>

#include "sim/cli/commands.hpp"
#include "sim/cli/usage.hpp"
#include "sim/cli/write_report.hpp"
#include "sim/config/dump.hpp"
#include "sim/config/loader.hpp"
#include "sim/report/serve_report.hpp"
#include "sim/study/serve.hpp"

namespace codesim::cli {

void run_serve(const ServeOptions& o, std::ostream& out) {
  const auto settings = config::parse_settings(o.settings);
  const metrics::ServeResult r =
      study::simulate_serving({o.scenario, {}, settings}, {.max_serve_steps = o.max_steps},
                              [](const std::string& line) { progress("serve", line); });
  write_report(report::serve_json(r),
               {[&] { return report::serve_csv(r); }, [&] { return report::serve_markdown(r); },
                [&] {
                  const config::Scenario s = config::load_scenario(o.scenario, settings);
                  return report::serve_html(r, {config::to_yaml(s), "codesim " CODESIM_VERSION});
                },
                [&] { return report::serve_table(r); }},
               o.format, o.report, out);
}

}  // namespace codesim::cli
