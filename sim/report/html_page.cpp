// Pieces every HTML page shares: the page head and style, tables, the notes sorted into fitted
// inputs and method, and the footer with the scenario and the version.
#include "sim/report/html_page.hpp"

#include "sim/report/labels.hpp"
#include "sim/report/svg_chart.hpp"

namespace codesim::report {
namespace {

constexpr const char* kStyle =
    "body{font-family:sans-serif;margin:24px auto;max-width:1000px;color:#222}"
    "table{border-collapse:collapse;margin:8px 0}"
    "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right;white-space:nowrap}"
    "td:first-child,th:first-child{text-align:left}"
    "pre{background:#f6f6f6;padding:8px;overflow-x:auto;font-size:12px}"
    "footer{margin-top:32px;color:#555;font-size:13px}";

bool is_input(const core::Note& n) {
  return n.kind == core::NoteKind::fitted || n.kind == core::NoteKind::assumed ||
         n.kind == core::NoteKind::estimated;
}

}  // namespace

std::string open_page(const std::string& title) {
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" +
         escape_xml(title) + "</title><style>" + kStyle + "</style></head><body>\n<h1>" +
         escape_xml(title) + "</h1>\n";
}

std::string html_table(const std::vector<std::string>& header,
                       const std::vector<std::vector<std::string>>& rows) {
  std::string out = "<table><tr>";
  for (const auto& h : header) {
    out += "<th>" + escape_xml(h) + "</th>";
  }
  out += "</tr>";
  for (const auto& r : rows) {
    out += "<tr>";
    for (const auto& c : r) {
      out += "<td>" + escape_xml(c) + "</td>";
    }
    out += "</tr>";
  }
  return out + "</table>\n";
}

// Notes sorted into what was fitted, assumed or estimated and everything else the model says.
std::string provenance(const std::vector<core::Note>& notes) {
  std::string out =
      "<h2>Fitted and predicted</h2>\n<p>Every figure above is predicted by the model from the "
      "scenario. These inputs to it were fitted to measurements, assumed or estimated:</p><ul>";
  for (const auto& n : notes) {
    if (is_input(n)) {
      out += "<li>" + escape_xml(note_line(n)) + "</li>";
    }
  }
  out += "</ul><p>How the model was applied:</p><ul>";
  for (const auto& n : notes) {
    if (!is_input(n)) {
      out += "<li>" + escape_xml(note_line(n)) + "</li>";
    }
  }
  return out + "</ul>\n";
}

std::string footer_html(const PageFooter& f) {
  return "<footer><h2>Scenario</h2><pre>" + escape_xml(f.scenario_text) + "</pre><p>" +
         escape_xml(f.version) + "</p></footer>\n</body></html>\n";
}

// The step-time breakdown of each result, stacked.
Chart breakdown_chart(const std::vector<std::string>& names,
                      const std::vector<const metrics::RunResult*>& results) {
  Chart c{"step-time breakdown of the first pipeline rank", names, {}, "seconds"};
  for (const auto& part : kBreakdownParts) {
    Series s{std::string(part.label), {}};
    for (const auto* r : results) {
      s.values.push_back(r != nullptr ? (r->breakdown.*part.member).value : 0.0);
    }
    c.series.push_back(std::move(s));
  }
  return c;
}

}  // namespace codesim::report
