#include "sim/cli/write_report.hpp"

#include "sim/report/atomic_file.hpp"

namespace codesim::cli {

void write_report(const nlohmann::ordered_json& j, const Writers& w, report::Format format,
                  const std::string& report_path, std::ostream& out) {
  // The report on stdout first: a file that cannot be written does not lose it.
  switch (format) {
    case report::Format::json:
      out << j.dump(2) << "\n";
      break;
    case report::Format::csv:
      out << w.csv();
      break;
    case report::Format::md:
      out << w.md();
      break;
    case report::Format::html:
      out << w.html();
      break;
    case report::Format::table:
      out << w.table();
      break;
  }
  if (!report_path.empty()) {
    report::write_file_atomically(report_path, j.dump(2) + "\n");
  }
}

}  // namespace codesim::cli
