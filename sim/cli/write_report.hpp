// A result's report in the format asked for, and its JSON document to --report too: what `run`
// and `serve` share.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "sim/report/format.hpp"

namespace codesim::cli {

// A result's writers, one per text format (JSON is given as a document).
struct Writers {
  std::function<std::string()> csv, md, html, table;
};

// `report_path` empty: no file.
void write_report(const nlohmann::ordered_json& j, const Writers& w, report::Format format,
                  const std::string& report_path, std::ostream& out);

}  // namespace codesim::cli
