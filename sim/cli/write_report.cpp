#include "sim/cli/write_report.hpp"

#include "sim/report/atomic_file.hpp"

namespace codesim::cli {

void write_report(const nlohmann::ordered_json& j, const Writers& w, report::Format format,
                  const std::string& report_path, std::ostream& out) {
  if (!report_path.empty()) {
    report::write_file_atomically(report_path, j.dump(2) + "\n");
  }
  switch (format) {
    case report::Format::json:
      out << j.dump(2) << "\n";
      return;
    case report::Format::csv:
      out << w.csv();
      return;
    case report::Format::md:
      out << w.md();
      return;
    case report::Format::html:
      out << w.html();
      return;
    case report::Format::table:
      out << w.table();
      return;
  }
}

}  // namespace codesim::cli
