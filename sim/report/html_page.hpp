// Pieces every self-contained HTML page shares (inline CSS and SVG, no scripts).
#pragma once

#include <string>
#include <vector>

#include "sim/core/note.hpp"
#include "sim/metrics/run_result.hpp"
#include "sim/report/svg_chart.hpp"

namespace codesim::report {

// What the page shows besides the results.
struct PageFooter {
  std::string scenario_text;  // the scenario as run (YAML)
  std::string version;        // "codesim 0.3.0"
};

// The document up to and including its <h1>.
std::string open_page(const std::string& title);

std::string html_table(const std::vector<std::string>& header,
                       const std::vector<std::vector<std::string>>& rows);

// "Fitted and predicted": the notes that are inputs (fitted, assumed, estimated), then the rest.
std::string provenance(const std::vector<core::Note>& notes);

// The step-time breakdown of each result, stacked (a missing result is an empty bar).
Chart breakdown_chart(const std::vector<std::string>& names,
                      const std::vector<const metrics::RunResult*>& results);

// The scenario text and the version, and the end of the document.
std::string footer_html(const PageFooter& f);

}  // namespace codesim::report
