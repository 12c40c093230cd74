// `codesim describe` and `codesim check`.
#include <ostream>

#include "sim/cli/commands.hpp"
#include "sim/config/dump.hpp"
#include "sim/config/loader.hpp"
#include "sim/config/schema_doc.hpp"
#include "sim/report/table.hpp"

namespace codesim::cli {

void run_describe(const std::string& format, std::ostream& out) {
  if (format == "json") {
    out << config::schema_json().dump(2) << "\n";
    return;
  }
  if (format == "md") {
    out << config::schema_markdown();
    return;
  }
  report::Table t({"key", "type", "unit", "default", "description"});
  for (const auto& r : config::schema_rows()) {
    t.add_row({r.key, r.type, r.unit, r.default_value, r.doc});
  }
  out << t.render();
}

void run_check(const std::string& scenario, const std::string& format, std::ostream& out) {
  const config::Scenario s = config::load_scenario(scenario);
  if (format == "json") {
    out << config::to_json(s).dump(2) << "\n";
  } else {
    out << config::to_yaml(s);
  }
}

}  // namespace codesim::cli
