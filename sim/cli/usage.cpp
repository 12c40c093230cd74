// Shared usage errors.
#include "sim/cli/usage.hpp"

#include <unistd.h>

#include <iostream>

#include "models/hardware/catalog.hpp"
#include "sim/core/error.hpp"
#include "sim/core/text.hpp"
#include "sim/report/figure_table.hpp"

namespace codesim::cli {

void throw_usage_error(std::string_view command, const std::string& message,
                       const std::string& hint, const std::string& key) {
  throw core::InputError(
      core::Diagnostic{{"codesim " + std::string(command), 0, 0}, key, message, hint});
}

hardware::HardwareSpec hardware_preset(std::string_view command, const std::string& name,
                                       const std::string& key) {
  const auto h = hardware::find_preset(name);
  if (!h) {
    throw_usage_error(command, "unknown hardware '" + name + "'",
                      "one of: " + core::join(hardware::preset_names(), ", "), key);
  }
  return *h;
}

void progress(std::string_view command, const std::string& line) {
  if (isatty(STDERR_FILENO)) {
    std::cerr << "codesim " << command << ": " << line << "\n";
  }
}

void write_figures(const nlohmann::ordered_json& j, report::Format format, std::ostream& out) {
  out << (format == report::Format::json ? j.dump(2) + "\n" : report::figure_table(j));
}

}  // namespace codesim::cli
